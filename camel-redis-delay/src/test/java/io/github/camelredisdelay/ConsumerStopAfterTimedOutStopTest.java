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
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.StatefulService;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.support.service.ServiceHelper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A consumer stopped alone (as JMX's stop operation of a consumer does) after another route's stop ran out of time in
 * the same CamelContext, whether or not a route policy suspended it first (as Camel's throttling policies do).
 */
@CamelSide
class ConsumerStopAfterTimedOutStopTest extends RedisDelayTestSupport {

    @ParameterizedTest(name = "suspended by a route policy first: {0}")
    @ValueSource(booleans = { false, true })
    void aConsumerStoppedAloneWaitsForItsExchangeInFlightThoughAnEarlierRouteStopRanOutOfTime(boolean suspendedFirst)
            throws Exception {
        CountDownLatch otherStarted = new CountDownLatch(1);
        CountDownLatch jobStarted = new CountDownLatch(1);
        List<String> completed = new CopyOnWriteArrayList<>();
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:other").routeId("other").process(e -> {
                    otherStarted.countDown();
                    // outlasts its route's stop timeout of 1 s; the stop's interrupt ends it
                    TimeUnit.SECONDS.sleep(5);
                });
                from("redis-delay:jobs").routeId("jobs").process(e -> {
                    jobStarted.countDown();
                    // well within the context's shutdown timeout (10 s)
                    TimeUnit.SECONDS.sleep(3);
                    completed.add(e.getMessage().getBody(String.class));
                });
            }
        });
        node.createProducerTemplate().sendBody("redis-delay:other", "other");
        assertThat(otherStarted.await(10, TimeUnit.SECONDS)).isTrue();
        node.getRouteController().stopRoute("other", 1, TimeUnit.SECONDS);
        await("route other stopped").atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(100))
                .until(() -> node.getRouteController().getRouteStatus("other").isStopped()
                        && Thread.getAllStackTraces().values().stream().flatMap(Arrays::stream)
                                .noneMatch(frame -> frame.getClassName()
                                        .endsWith("DefaultShutdownStrategy$ShutdownTask")));

        node.createProducerTemplate().sendBodyAndHeader("redis-delay:jobs", "job", RedisDelayConstants.MESSAGE_ID, "job-1");
        assertThat(jobStarted.await(10, TimeUnit.SECONDS)).isTrue();
        StatefulService consumer = (StatefulService) node.getRoute("jobs").getConsumer();
        if (suspendedFirst) {
            // as RoutePolicySupport.suspendOrStopConsumer does
            ServiceHelper.suspendService(consumer);
        }
        // the consumer alone stops, as JMX's stop operation of a consumer does: it lets its exchange finish within the
        // shutdown timeout and acknowledges it
        consumer.stop();

        assertThat(completed).as("the exchange in flight finished").containsExactly("job");
        assertThat(redis().getMap(key("jobs", "msg"))).as("acknowledged").doesNotContainKey("job-1");
    }
}
