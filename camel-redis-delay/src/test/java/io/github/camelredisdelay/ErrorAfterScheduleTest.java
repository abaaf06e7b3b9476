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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.InflightCounts;
import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An {@code Error} (a poison message's {@code StackOverflowError}) thrown by a step after an asynchronous schedule, on
 * the component's completion thread, where the route continued.
 */
@CamelSide
class ErrorAfterScheduleTest extends RedisDelayTestSupport {

    private final List<Message> deliveries = new CopyOnWriteArrayList<>();

    @Test
    void theCallerOfARouteThatThrowsAnErrorAfterAScheduleGetsTheErrorInsteadOfWaitingForEver() throws Exception {
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:schedule").to("redis-delay:q?delay=60000").process(e -> {
                    throw new StackOverflowError("poison");
                });
            }
        });
        ProducerTemplate template = node.createProducerTemplate();

        // with synchronous=true the Error comes out of the caller's own call; here the route continued on a
        // completion thread of the component
        try (LogLines logged = LogLines.of(ScheduleContinuation.class)) {
            CompletableFuture<Exchange> call = CompletableFuture.supplyAsync(
                    () -> template.send("direct:schedule", e -> e.getMessage().setBody("m")));

            assertThat(call).succeedsWithin(Duration.ofSeconds(10)).extracting(Exchange::getException)
                    .extracting(Throwable::getCause).isInstanceOf(StackOverflowError.class);
            assertThat(logged.lines()).singleElement().asString().startsWith("ERROR")
                    .contains("A step after the schedule of exchange").contains("StackOverflowError: poison");
        }
        assertThat(dueSet("q").size()).isEqualTo(1);
        assertThat(node.getInflightRepository().size()).as("exchanges left in flight").isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "asyncConsumer=false", "asyncConsumer=true&maxMessagesPerPoll=1",
            "consumerType=polling&pollInterval=100" })
    void aDeliveryWhoseRouteThrowsAnErrorAfterAScheduleIsRetried(String consumer) throws Exception {
        ProducerTemplate producer = startThrowingAfterScheduleOnFirstDelivery(consumer).createProducerTemplate();

        producer.sendBodyAndHeader("redis-delay:jobs", "job-1", RedisDelayConstants.MESSAGE_ID, "job-1");

        await().atMost(Duration.ofSeconds(10)).until(() -> deliveries.size() >= 1);
        await("job-1 retried on its retrySchedule").atMost(Duration.ofSeconds(5)).until(() -> deliveries.size() >= 2);
        assertThat(deliveries.get(1).getHeader(RedisDelayConstants.LAST_ERROR)).asString().contains("StackOverflowError")
                .contains("poison");
    }

    /**
     * Camel's own after-steps of the exchange the {@code Error} failed (taking it out of its routes' inflight counts,
     * ending its unit of work) were left queued on the completion thread, and ran at the next exchange routed there,
     * after the component had ended the exchange: the inflight counts of the context and of each route went negative
     * for good (JMX and metrics showing -1 exchanges in flight).
     */
    @ParameterizedTest
    @ValueSource(strings = {
            "asyncConsumer=false", "asyncConsumer=true&maxMessagesPerPoll=1",
            "consumerType=polling&pollInterval=100" })
    void theNextExchangesOnTheCompletionThreadLeaveTheInflightCountsAtZero(String consumer) throws Exception {
        CamelContext node = startThrowingAfterScheduleOnFirstDelivery(consumer);

        node.createProducerTemplate().sendBodyAndHeader("redis-delay:jobs", "job-1", RedisDelayConstants.MESSAGE_ID,
                "job-1");

        await("job-1 retried and acknowledged").atMost(Duration.ofSeconds(10))
                .until(() -> deliveries.size() >= 2 && redis().getMap(key("jobs", "msg")).isEmpty());
        InflightCounts.assertSettledAtZero(node, "jobs");
    }

    /**
     * Starts a context whose route {@code jobs} records each delivery, schedules it on to queue {@code out} and then
     * throws a poison message's {@code StackOverflowError} on the first delivery.
     */
    private CamelContext startThrowingAfterScheduleOnFirstDelivery(String consumer) throws Exception {
        return startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs?retrySchedule=50&visibilityTimeout=20s&" + consumer).routeId("jobs")
                        .process(e -> deliveries.add(e.getMessage().copy())).to("redis-delay:out?delay=60000")
                        .process(e -> {
                            if (deliveries.size() == 1) {
                                throw new StackOverflowError("poison");
                            }
                        });
            }
        });
    }
}
