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
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.InflightCounts;
import io.github.camelredisdelay.test.LateWaitingAwaitManager;
import io.github.camelredisdelay.test.PoisonStep;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.model.RouteDefinition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An {@code Error} (a poison message's {@code StackOverflowError}) thrown after an asynchronous schedule within a part
 * of a {@code split}, {@code multicast} or {@code recipientList} of a delivered exchange. Camel's after-steps of the
 * part, which go on with the fan-out, were left queued on the completion thread (and, once run, the next part's
 * {@code Error} left them queued again), so the delivered exchange never ended: the consumer's thread (or, with
 * {@code asyncConsumer}, its in-flight place) was lost, and the message's lease was kept alive, so it was never retried
 * nor delivered again, and the next messages waited behind it. The delivery must fail with the {@code Error}, retried
 * on its {@code retrySchedule}. So too when the step that throws is an expression ({@code setBody}'s), which does not
 * call Camel back: Camel then leaves nothing of the part queued, and the fan-out waits for the part for ever.
 */
@CamelSide
class ErrorAfterScheduleInPartTest extends RedisDelayTestSupport {

    private final List<Message> deliveries = new CopyOnWriteArrayList<>();

    @ParameterizedTest
    @CsvSource({
            "split, asyncConsumer=false, processor", "split, asyncConsumer=true&maxMessagesPerPoll=1, processor",
            "split, consumerType=polling&pollInterval=100, processor",
            "multicast, asyncConsumer=true&maxMessagesPerPoll=1, processor", "recipientList, asyncConsumer=false, processor",
            "split, asyncConsumer=false, expression", "split, asyncConsumer=true&maxMessagesPerPoll=1, expression",
            "split, consumerType=polling&pollInterval=100, expression",
            "multicast, asyncConsumer=true&maxMessagesPerPoll=1, expression",
            "recipientList, asyncConsumer=false, expression" })
    void aDeliveryWhosePartThrowsAnErrorAfterAScheduleIsRetried(String fanOut, String consumer, String step)
            throws Exception {
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                PoisonStep.append(from("direct:part").routeId("part").to("redis-delay:out?delay=60000"), step,
                        () -> deliveries.size() == 1);
                RouteDefinition route = from("redis-delay:jobs?retrySchedule=50&visibilityTimeout=20s&" + consumer)
                        .routeId("jobs").process(e -> deliveries.add(e.getMessage().copy()));
                switch (fanOut) {
                    case "split" -> route.split(body().tokenize(",")).to("direct:part").end();
                    case "multicast" -> route.multicast().to("direct:part", "direct:part").end();
                    default -> route.recipientList(constant("direct:part"));
                }
            }
        });

        node.createProducerTemplate().sendBodyAndHeader("redis-delay:jobs", "a,b", RedisDelayConstants.MESSAGE_ID,
                "job-1");

        PoisonStep.assertRetriedWithThePoison(deliveries);
        InflightCounts.assertSettledAtZero(node, "jobs", "part");
    }

    /**
     * A {@code ProducerTemplate}'s caller of a split whose part's expression throws: it is released, its exchange
     * failing with Camel's {@code RejectedExecutionException} for it. So too when the part throws before the caller's
     * thread waits for the split ({@code waitsLate}: the schedule replied at once, the caller kept off a core a while).
     */
    @ParameterizedTest(name = "waitsLate={0}")
    @ValueSource(booleans = { false, true })
    void theCallerOfASplitWhosePartExpressionThrowsAnErrorIsReleased(boolean waitsLate) throws Exception {
        CamelContext node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                PoisonStep.append(from("direct:part").routeId("part").to("redis-delay:out?delay=60000"), "expression",
                        () -> true);
                from("direct:split").routeId("split").split(body().tokenize(",")).to("direct:part").end();
            }
        });
        if (waitsLate) {
            LateWaitingAwaitManager.install(node);
        }
        node.start();
        ProducerTemplate template = node.createProducerTemplate();

        CompletableFuture<Exchange> call
                = CompletableFuture.supplyAsync(() -> template.send("direct:split", e -> e.getMessage().setBody("a,b")));

        assertThat(call).succeedsWithin(Duration.ofSeconds(15)).extracting(Exchange::getException)
                .isInstanceOf(RejectedExecutionException.class);
        InflightCounts.assertSettledAtZero(node, "split", "part");
    }

    /**
     * Part {@code a}'s schedule is asynchronous; its route goes on, and the split with part {@code b}, on the
     * completion thread, where {@code b}'s schedule runs at once and its {@code Error} escapes, part {@code a} being
     * done. It was set on part {@code a}, and part {@code b}, whose after-steps Camel left queued, went on as if it had
     * succeeded: the delivery was acknowledged, the {@code Error} only logged. Each delivery must fail with it, the
     * message dead-lettered after {@code maxDeliveries}.
     */
    @ParameterizedTest
    @ValueSource(strings = {
            "asyncConsumer=false", "asyncConsumer=true&maxMessagesPerPoll=1", "consumerType=polling&pollInterval=100" })
    void aDeliveryWhoseLaterPartThrowsAnErrorIsRetriedThenDeadLettered(String consumer) throws Exception {
        String uri = "redis-delay:jobs?retrySchedule=50&maxDeliveries=2&visibilityTimeout=20s&" + consumer;
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                throwingInPartB(from("direct:part"));
                from(uri).routeId("jobs").process(e -> deliveries.add(e.getMessage().copy()))
                        .split(body().tokenize(",")).to("direct:part").end();
            }
        });
        RedisDelayEndpoint jobs = node.getEndpoint(uri, RedisDelayEndpoint.class);

        node.createProducerTemplate().sendBodyAndHeader(uri, "a,b", RedisDelayConstants.MESSAGE_ID, "job-1");

        await("job-1 dead-lettered").atMost(Duration.ofSeconds(10))
                .until(() -> "dead".equals(jobs.peekMessage("job-1").get("state")));
        Map<String, Object> deadLetter = jobs.peekMessage("job-1");
        assertThat(deadLetter.get("lastError")).asString().contains("StackOverflowError").contains("poison");
        assertThat(deliveries).as("deliveries").hasSize(2);
        InflightCounts.assertSettledAtZero(node, "jobs");
    }

    /** The same for a {@code ProducerTemplate}'s caller: its exchange fails with the {@code Error}. */
    @Test
    void theCallerOfASplitWhoseLaterPartThrowsAnErrorGetsIt() throws Exception {
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                throwingInPartB(from("direct:part"));
                from("direct:split").routeId("split").split(body().tokenize(",")).to("direct:part").end();
            }
        });
        ProducerTemplate template = node.createProducerTemplate();

        CompletableFuture<Exchange> call
                = CompletableFuture.supplyAsync(() -> template.send("direct:split", e -> e.getMessage().setBody("a,b")));

        assertThat(call).succeedsWithin(Duration.ofSeconds(10)).extracting(Exchange::getException)
                .extracting(Throwable::getCause).isInstanceOf(StackOverflowError.class);
        InflightCounts.assertSettledAtZero(node, "split");
    }

    /** Schedules each part on to queue {@code out}, then throws a poison message's Error in part {@code b}. */
    private static void throwingInPartB(RouteDefinition part) {
        part.to("redis-delay:out?delay=60000").process(e -> {
            if ("b".equals(e.getMessage().getBody(String.class))) {
                throw new StackOverflowError("poison");
            }
        });
    }
}
