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
import java.util.concurrent.RejectedExecutionException;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.InflightCounts;
import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.PoisonStep;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An {@code Error} (a poison message's {@code StackOverflowError}) thrown by a step after an asynchronous schedule, on
 * the component's completion thread, where the route continued. The step is a processor, which calls Camel back as it
 * throws (Camel's after-steps of the exchange are left queued on the thread), or an expression (here {@code setBody}'s;
 * a predicate of {@code filter} or {@code choice} alike), which does not: Camel leaves nothing of the exchange queued,
 * and the component ends it and releases whoever waits for it.
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

        // with synchronous=true the Error comes out of the caller's own call; here the route continued on a
        // completion thread of the component
        Exchange sent = sendLoggingTheError(node.createProducerTemplate());

        assertThat(sent.getException()).extracting(Throwable::getCause).isInstanceOf(StackOverflowError.class);
        assertThat(dueSet("q").size()).isEqualTo(1);
        assertThat(node.getInflightRepository().size()).as("exchanges left in flight").isZero();
    }

    /**
     * Camel calls nobody back: the waiting caller is released through Camel's await manager, its exchange failing with
     * Camel's {@code RejectedExecutionException} for it (the component's ERROR line names the {@code Error}).
     */
    @Test
    void theCallerOfARouteWhoseExpressionThrowsAnErrorAfterAScheduleIsReleased() throws Exception {
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                PoisonStep.append(from("direct:schedule").routeId("schedule").to("redis-delay:q?delay=60000"),
                        "expression", () -> true);
            }
        });

        Exchange sent = sendLoggingTheError(node.createProducerTemplate());

        assertThat(sent.getException()).isInstanceOf(RejectedExecutionException.class);
        InflightCounts.assertSettledAtZero(node, "schedule");
    }

    @ParameterizedTest
    @CsvSource({
            "asyncConsumer=false, processor", "asyncConsumer=true&maxMessagesPerPoll=1, processor",
            "consumerType=polling&pollInterval=100, processor", "asyncConsumer=false, expression",
            "asyncConsumer=true&maxMessagesPerPoll=1, expression", "consumerType=polling&pollInterval=100, expression" })
    void aDeliveryWhoseRouteThrowsAnErrorAfterAScheduleIsRetried(String consumer, String step) throws Exception {
        ProducerTemplate producer = startThrowingAfterScheduleOnFirstDelivery(consumer, step).createProducerTemplate();

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
    @CsvSource({
            "asyncConsumer=false, processor", "asyncConsumer=true&maxMessagesPerPoll=1, processor",
            "consumerType=polling&pollInterval=100, processor", "asyncConsumer=false, expression",
            "asyncConsumer=true&maxMessagesPerPoll=1, expression", "consumerType=polling&pollInterval=100, expression" })
    void theNextExchangesOnTheCompletionThreadLeaveTheInflightCountsAtZero(String consumer, String step)
            throws Exception {
        CamelContext node = startThrowingAfterScheduleOnFirstDelivery(consumer, step);

        node.createProducerTemplate().sendBodyAndHeader("redis-delay:jobs", "job-1", RedisDelayConstants.MESSAGE_ID,
                "job-1");

        await("job-1 retried and acknowledged").atMost(Duration.ofSeconds(10))
                .until(() -> deliveries.size() >= 2 && redis().getMap(key("jobs", "msg")).isEmpty());
        InflightCounts.assertSettledAtZero(node, "jobs");
    }

    /**
     * Sends to {@code direct:schedule} from a thread of its own and returns the exchange, once back within 10 s, the
     * component having logged the route's {@code Error} in one ERROR line.
     */
    private static Exchange sendLoggingTheError(ProducerTemplate template) {
        try (LogLines logged = LogLines.of(ScheduleContinuation.class)) {
            CompletableFuture<Exchange> call = CompletableFuture.supplyAsync(
                    () -> template.send("direct:schedule", e -> e.getMessage().setBody("m")));

            assertThat(call).succeedsWithin(Duration.ofSeconds(10));
            assertThat(logged.lines()).singleElement().asString().startsWith("ERROR")
                    .contains("A step after the schedule of exchange").contains("StackOverflowError: poison");
            return call.join();
        }
    }

    /**
     * Starts a context whose route {@code jobs} records each delivery, schedules it on to queue {@code out} and then,
     * in a {@code processor} or an {@code expression} step, throws a poison message's {@code StackOverflowError} on the
     * first delivery.
     */
    private CamelContext startThrowingAfterScheduleOnFirstDelivery(String consumer, String step) throws Exception {
        return startContext(new RouteBuilder() {
            @Override
            public void configure() {
                PoisonStep.append(from("redis-delay:jobs?retrySchedule=50&visibilityTimeout=20s&" + consumer)
                        .routeId("jobs").process(e -> deliveries.add(e.getMessage().copy()))
                        .to("redis-delay:out?delay=60000"), step, () -> deliveries.size() == 1);
            }
        });
    }
}
