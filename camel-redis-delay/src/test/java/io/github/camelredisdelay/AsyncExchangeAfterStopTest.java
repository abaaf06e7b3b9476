/*
 * Copyright The camel-redis-delay authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.github.camelredisdelay;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * With {@code asyncConsumer=true}, an exchange still waiting in an asynchronous step when its route's stop runs out of
 * time is not interrupted (Camel has no thread of it to interrupt): it keeps its lease while it waits, so no other node
 * takes the message over meanwhile; once the step completes, the stopped route refuses its next step and the message is
 * delivered again after {@code visibilityTimeout}.
 */
@CamelSide
class AsyncExchangeAfterStopTest extends RedisDelayTestSupport {

    /** Three visibility timeouts: another node would take the message over before it if the lease were not kept. */
    private static final long STEP_MILLIS = 3_000;

    @ParameterizedTest
    @ValueSource(strings = { "asyncConsumer=true", "consumerType=polling&pollInterval=100&asyncConsumer=true" })
    void anAsynchronousExchangeAStopCutOffKeepsItsLeaseUntilItsStepCompletesThenIsDeliveredAgain(String options)
            throws Exception {
        List<Long> started = new CopyOnWriteArrayList<>();
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:cutoff?visibilityTimeout=1s&" + options).routeId("cutoff")
                        .process(e -> started.add(System.nanoTime()))
                        .delay(STEP_MILLIS).asyncDelayed()
                        .log("${body}");
            }
        });
        node.getShutdownStrategy().setTimeout(1);
        node.createProducerTemplate().sendBody("redis-delay:cutoff", "job");
        await().atMost(Duration.ofSeconds(10)).until(() -> !started.isEmpty());

        node.getRouteController().stopRoute("cutoff");
        List<Long> elsewhere = new CopyOnWriteArrayList<>();
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:cutoff?visibilityTimeout=1s").process(e -> elsewhere.add(System.nanoTime()));
            }
        });

        await().atMost(Duration.ofSeconds(15)).until(() -> redis().getMap(key("cutoff", "msg")).isEmpty());
        assertThat(started).hasSize(1);
        assertThat(elsewhere).as("deliveries on the other node").hasSize(1);
        assertThat(Duration.ofNanos(elsewhere.get(0) - started.get(0))).as("from the first delivery to the second")
                .isGreaterThanOrEqualTo(Duration.ofMillis(STEP_MILLIS));
    }
}
