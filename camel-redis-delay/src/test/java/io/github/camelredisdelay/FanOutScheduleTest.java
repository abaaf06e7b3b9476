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

import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A route that makes several messages of one exchange (split, multicast, loop) and schedules each: every part carries
 * the exchange's message id (a delivered message's, or the one an earlier schedule of the exchange generated), which
 * keeps forwarding idempotent (component page, "Forwarding between queues") but makes the parts one message. The first
 * part a queue keeps out, or that replaces the part before, is named in a WARN with the way out; parts given ids of
 * their own are all stored, without a word.
 */
class FanOutScheduleTest extends RedisDelayTestSupport {

    private final List<String> delivered = new CopyOnWriteArrayList<>();

    private ProducerTemplate node(RouteBuilder routes) throws Exception {
        return startContext(routes).createProducerTemplate();
    }

    private static List<String> warnings(LogLines log) {
        return log.lines().stream().filter(line -> line.startsWith("WARN")).toList();
    }

    @Test
    void aLoopWhoseIterationsShareTheIdTheFirstScheduleGeneratedIsNamedInOneWarning() throws Exception {
        try (LogLines log = LogLines.of(RedisDelayProducer.class)) {
            node(new RouteBuilder() {
                @Override
                public void configure() {
                    from("direct:remind").loop(3).setBody(simple("reminder ${exchangeProperty.CamelLoopIndex}"))
                            .to("redis-delay:reminders?delay=1h").end();
                }
            }).sendBody("direct:remind", "order-1");

            assertThat(warnings(log)).singleElement().asString().contains("queue reminders", "iteration 1 of a loop",
                    "kept out as a duplicate",
                    "simple(\"${header.CamelRedisDelayMessageId}-${exchangeProperty.CamelLoopIndex}\")");
        }
    }

    @Test
    void partsOfADeliveredMessageSplitIntoAnotherQueueAreNamedInOneWarning() throws Exception {
        try (LogLines log = LogLines.of(RedisDelayProducer.class)) {
            node(new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:orders").split(body().tokenize(",")).to("redis-delay:items?delay=1h");
                }
            }).sendBody("redis-delay:orders", "a,b,c");

            await().atMost(Duration.ofSeconds(10)).until(() -> !warnings(log).isEmpty());
            assertThat(warnings(log)).singleElement().asString().contains("queue items", "part 1 of a split",
                    "CamelSplitIndex");
        }
    }

    @Test
    void partsOfADeliveredMessageSplitIntoAnotherQueueReplacingEachOtherAreNamedInOneWarning() throws Exception {
        try (LogLines log = LogLines.of(RedisDelayProducer.class)) {
            node(new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:orders").split(body().tokenize(","))
                            .to("redis-delay:items?delay=1h&onDuplicate=replace");
                }
            }).sendBody("redis-delay:orders", "a,b,c");

            await().atMost(Duration.ofSeconds(10)).until(() -> !warnings(log).isEmpty());
            assertThat(warnings(log)).singleElement().asString().contains("queue items", "part 1 of a split",
                    "replaced the message stored before it under that id (onDuplicate=replace)", "CamelSplitIndex");
        }
    }

    @Test
    void partsOfADeliveredMessageSplitBackIntoItsQueueReplacingEachOtherAreNamedInOneWarning() throws Exception {
        try (LogLines log = LogLines.of(RedisDelayProducer.class)) {
            node(new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:orders").filter(body().contains(",")).split(body().tokenize(","))
                            .to("redis-delay:orders?delay=1h");
                }
            }).sendBody("redis-delay:orders", "a,b,c");

            await().atMost(Duration.ofSeconds(10)).until(() -> !warnings(log).isEmpty());
            assertThat(warnings(log)).singleElement().asString().contains("queue orders", "part 1 of a split",
                    "replaced");
        }
    }

    @Test
    void partsGivenIdsOfTheirOwnAreAllStoredWithoutAWarning() throws Exception {
        try (LogLines log = LogLines.of(RedisDelayProducer.class)) {
            ProducerTemplate producer = node(new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:orders").split(body().tokenize(","))
                            .setHeader(RedisDelayConstants.MESSAGE_ID,
                                    simple("${header.CamelRedisDelayMessageId}-${exchangeProperty.CamelSplitIndex}"))
                            .to("redis-delay:items");
                    from("redis-delay:items").process(e -> delivered.add(e.getMessage().getBody(String.class)));
                }
            });

            producer.sendBody("redis-delay:orders", "a,b,c");

            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(delivered).containsExactlyInAnyOrder("a", "b", "c"));
            assertThat(warnings(log)).isEmpty();
        }
    }
}
