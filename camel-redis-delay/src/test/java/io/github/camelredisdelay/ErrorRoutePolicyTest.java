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
import java.util.concurrent.atomic.AtomicInteger;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.InflightCounts;
import io.github.camelredisdelay.test.PoisonStep;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.Route;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.model.RouteDefinition;
import org.apache.camel.support.RoutePolicySupport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A route's {@code RoutePolicy} after an {@code Error} (a poison message's {@code StackOverflowError}) that escaped
 * Camel's routing engine, thrown on the consumer's thread or after an asynchronous schedule, on a completion thread of
 * the component. A step that throws without calling Camel back (an expression: {@code setBody}'s) leaves none of
 * Camel's after-steps of the route to run, its policy's {@code onExchangeDone} among them; the component ends the
 * exchange, and the policy must see it done, as for a processor that throws (which calls Camel back). A policy that
 * counts the exchanges it saw begin and not end (as Camel's {@code ThrottlingInflightRoutePolicy} suspends and resumes
 * the consumer by them) would count that exchange for ever.
 */
@CamelSide
class ErrorRoutePolicyTest extends RedisDelayTestSupport {

    private final List<String> delivered = new CopyOnWriteArrayList<>();
    private final AtomicInteger begun = new AtomicInteger();
    private final AtomicInteger done = new AtomicInteger();

    @ParameterizedTest
    @CsvSource({
            "asyncConsumer=false, consumer's thread, processor", "asyncConsumer=false, consumer's thread, expression",
            "asyncConsumer=true, consumer's thread, expression",
            "consumerType=polling&pollInterval=100, consumer's thread, expression",
            "asyncConsumer=false, after a schedule, processor", "asyncConsumer=false, after a schedule, expression",
            "asyncConsumer=true, after a schedule, expression",
            "consumerType=polling&pollInterval=100, after a schedule, expression" })
    void theRoutesPolicySeesTheFailedExchangeDone(String consumer, String where, String step) throws Exception {
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                RouteDefinition route = from("redis-delay:jobs?retrySchedule=50&visibilityTimeout=20s&" + consumer)
                        .routeId("jobs").routePolicy(new CountingPolicy())
                        .process(e -> delivered.add(e.getExchangeId()));
                if (where.equals("after a schedule")) {
                    route.to("redis-delay:out?delay=60000");
                }
                PoisonStep.append(route, step, () -> delivered.size() == 1);
            }
        });

        node.createProducerTemplate().sendBodyAndHeader("redis-delay:jobs", "job-1", RedisDelayConstants.MESSAGE_ID,
                "job-1");

        await("job-1 retried and acknowledged").atMost(Duration.ofSeconds(10))
                .until(() -> delivered.size() >= 2 && redis().getMap(key("jobs", "msg")).isEmpty());
        InflightCounts.assertSettledAtZero(node, "jobs");
        assertThat(begun).as("exchanges the policy saw begin").hasValue(2);
        assertThat(done).as("exchanges the policy saw done").hasValue(2);
    }

    /** Counts the exchanges it saw begin and those it saw done. */
    private final class CountingPolicy extends RoutePolicySupport {

        @Override
        public void onExchangeBegin(Route route, Exchange exchange) {
            begun.incrementAndGet();
        }

        @Override
        public void onExchangeDone(Route route, Exchange exchange) {
            done.incrementAndGet();
        }
    }
}
