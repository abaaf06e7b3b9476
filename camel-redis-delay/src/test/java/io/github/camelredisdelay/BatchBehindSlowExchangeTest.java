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
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.spi.ShutdownAware;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A reader thread fetches a batch ({@code maxMessagesPerPoll}) and routes it one message after another. When one
 * exchange of the batch hangs (a call without a timeout), the messages behind it must not wait for it while other
 * consumers are idle: they are due, and no exchange of theirs runs.
 */
class BatchBehindSlowExchangeTest extends RedisDelayTestSupport {

    private static final String QUEUE = "hol";
    private static final int MESSAGES = 10;
    private static final long VISIBILITY_MS = 1000;

    private final CopyOnWriteArrayList<String> routed = new CopyOnWriteArrayList<>();
    private final Map<String, Long> latenessMs = new ConcurrentHashMap<>();
    private final CopyOnWriteArrayList<Integer> deliveryCounts = new CopyOnWriteArrayList<>();
    private final AtomicBoolean holding = new AtomicBoolean();
    private final CountDownLatch held = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);

    private RouteBuilder holdingTheFirstMessage(String options) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:" + QUEUE + "?" + options).process(exchange -> {
                    String body = exchange.getMessage().getBody(String.class);
                    long dueAt = exchange.getMessage().getHeader(RedisDelayConstants.SCHEDULED_FOR, Long.class);
                    latenessMs.putIfAbsent(body, System.currentTimeMillis() - dueAt);
                    deliveryCounts.add(exchange.getMessage().getHeader(RedisDelayConstants.DELIVERY_COUNT, Integer.class));
                    routed.add(body);
                    if (holding.compareAndSet(false, true)) {
                        held.countDown();
                        release.await(30, TimeUnit.SECONDS);
                    }
                });
            }
        };
    }

    @Test
    void messagesFetchedBehindAHungExchangeReachAnIdleConsumerThreadWithinTheVisibilityTimeout() throws Exception {
        ProducerTemplate producer = startContext().createProducerTemplate();
        for (int i = 0; i < MESSAGES; i++) {
            producer.sendBody("redis-delay:" + QUEUE, "m" + i);
        }
        await("all due and ready").atMost(Duration.ofSeconds(5))
                .until(() -> redis().getStream(key(QUEUE, "ready")).size() == MESSAGES);

        // two reader threads; the first read takes all ten, and the first of them hangs
        startContext(holdingTheFirstMessage("concurrentConsumers=2&maxMessagesPerPoll=10&visibilityTimeout=" + VISIBILITY_MS));
        try {
            assertThat(held.await(10, TimeUnit.SECONDS)).as("the route holds one message").isTrue();

            // the idle thread gets the others: within the visibility timeout and a margin, while the first still hangs
            await("the other messages routed while one exchange hangs").atMost(Duration.ofMillis(3 * VISIBILITY_MS))
                    .until(() -> routed.size() >= MESSAGES);
            assertThat(latenessMs.values()).as("lateness of each message, ms").allMatch(late -> late < 3 * VISIBILITY_MS);
        } finally {
            release.countDown();
        }

        await("queue drained").atMost(Duration.ofSeconds(10))
                .until(() -> redis().getMap(key(QUEUE, "msg")).isEmpty());
        assertThat(routed).as("each message routed once, none while it was held elsewhere").hasSize(MESSAGES)
                .doesNotHaveDuplicates();
        assertThat(deliveryCounts).as("a message handed back unrouted is not counted as delivered").containsOnly(1);
    }

    /**
     * What the consumer counts as pending (Camel's shutdown strategy waits for it, and logs it) is what it fetched and
     * did not route yet: not the messages the lease timer handed back, which another consumer thread routed since.
     */
    @Test
    void messagesHandedBackBehindAHungExchangeAreNoLongerPendingWithTheConsumer() throws Exception {
        ProducerTemplate producer = startContext().createProducerTemplate();
        for (int i = 0; i < MESSAGES; i++) {
            producer.sendBody("redis-delay:" + QUEUE, "m" + i);
        }
        await("all due and ready").atMost(Duration.ofSeconds(5))
                .until(() -> redis().getStream(key(QUEUE, "ready")).size() == MESSAGES);

        CamelContext context = startContext(
                holdingTheFirstMessage("concurrentConsumers=2&maxMessagesPerPoll=10&visibilityTimeout=" + VISIBILITY_MS));
        ShutdownAware consumer = (ShutdownAware) context.getRoutes().get(0).getConsumer();
        try {
            assertThat(held.await(10, TimeUnit.SECONDS)).as("the route holds one message").isTrue();
            await("the other messages routed while one exchange hangs").atMost(Duration.ofMillis(3 * VISIBILITY_MS))
                    .until(() -> routed.size() >= MESSAGES);

            await("pending: the held exchange only").atMost(Duration.ofSeconds(2))
                    .untilAsserted(() -> assertThat(consumer.getPendingExchangesSize()).isEqualTo(1));
        } finally {
            release.countDown();
        }
        await("nothing pending once the held exchange ended").atMost(Duration.ofSeconds(5))
                .until(() -> consumer.getPendingExchangesSize() == 0);
    }
}
