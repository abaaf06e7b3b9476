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
import io.github.camelredisdelay.test.InflightCounts;
import io.github.camelredisdelay.test.PoisonStep;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.model.RouteDefinition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An {@code Error} (a poison message's {@code StackOverflowError}) that a processor throws in a part of a
 * {@code multicast} or in an {@code enrich}'s resource route, on the consumer's thread or after an asynchronous
 * schedule of the delivered exchange, where its route continued on a completion thread of the component. The processor
 * calls Camel back as it throws, and Camel goes on with the part as if it had succeeded; the {@code Error} escapes to
 * the thread, where the component failed the delivered exchange with it, and the {@code multicast} or {@code enrich}
 * then copied its result over that failure: the delivery was acknowledged, the {@code Error} only logged. It must be
 * retried with the {@code Error}; a route that catches the {@code Error} itself ({@code doCatch(Throwable.class)})
 * still handles it.
 */
@CamelSide
class ErrorInFanOutPartTest extends RedisDelayTestSupport {

    private final List<Message> deliveries = new CopyOnWriteArrayList<>();

    @ParameterizedTest
    @CsvSource({
            "multicast, consumer's thread, asyncConsumer=false",
            "multicast, consumer's thread, asyncConsumer=true&maxMessagesPerPoll=1",
            "multicast, consumer's thread, consumerType=polling&pollInterval=100",
            "multicast, after a schedule, asyncConsumer=false",
            "multicast, after a schedule, asyncConsumer=true&maxMessagesPerPoll=1",
            "multicast, after a schedule, consumerType=polling&pollInterval=100",
            "enrich, consumer's thread, asyncConsumer=false", "enrich, after a schedule, asyncConsumer=false" })
    void aDeliveryWhosePartThrowsAnErrorIsRetried(String fanOut, String where, String consumer) throws Exception {
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:fine").routeId("fine").setHeader("fine", constant(true));
                PoisonStep.append(from("direct:poison").routeId("poison"), "processor", () -> deliveries.size() == 1);
                RouteDefinition route = from("redis-delay:jobs?retrySchedule=50&visibilityTimeout=20s&" + consumer)
                        .routeId("jobs").process(e -> deliveries.add(e.getMessage().copy()));
                if (where.equals("after a schedule")) {
                    route.to("redis-delay:out?delay=60000");
                }
                if (fanOut.equals("multicast")) {
                    route.multicast().to("direct:fine", "direct:poison").end();
                } else {
                    route.enrich("direct:poison");
                }
            }
        });

        node.createProducerTemplate().sendBodyAndHeader("redis-delay:jobs", "job-1", RedisDelayConstants.MESSAGE_ID,
                "job-1");

        PoisonStep.assertRetriedWithThePoison(deliveries);
        InflightCounts.assertSettledAtZero(node, "jobs", "fine", "poison");
    }

    @Test
    void aDeliveryWhoseRouteCatchesTheErrorIsAcknowledged() throws Exception {
        List<Exception> caught = new CopyOnWriteArrayList<>();
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                PoisonStep.append(from("direct:poison").routeId("poison"), "processor", () -> true);
                from("redis-delay:jobs?retrySchedule=50&visibilityTimeout=20s").routeId("jobs")
                        .process(e -> deliveries.add(e.getMessage().copy())).doTry().to("redis-delay:out?delay=60000")
                        .to("direct:poison").doCatch(Throwable.class)
                        .process(e -> caught.add(e.getProperty(Exchange.EXCEPTION_CAUGHT, Exception.class)))
                        .end();
            }
        });

        node.createProducerTemplate().sendBodyAndHeader("redis-delay:jobs", "job-1", RedisDelayConstants.MESSAGE_ID,
                "job-1");

        await("job-1 acknowledged").atMost(Duration.ofSeconds(10))
                .until(() -> !caught.isEmpty() && redis().getMap(key("jobs", "msg")).isEmpty());
        assertThat(deliveries).as("deliveries").hasSize(1);
        assertThat(caught).singleElement().extracting(Throwable::getCause).isInstanceOf(StackOverflowError.class);
        InflightCounts.assertSettledAtZero(node, "jobs", "poison");
    }
}
