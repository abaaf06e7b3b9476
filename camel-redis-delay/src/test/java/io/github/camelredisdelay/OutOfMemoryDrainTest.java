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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.github.camelredisdelay.test.NeedsRedisProcess;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.redisson.api.redisnode.RedisNodes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Redis reaches {@code maxmemory} under {@code noeviction}: schedules are refused, but the consumers still drain what
 * the queue holds, which frees the memory, whether they ran before memory ran out or start while it is out.
 */
@NeedsRedisProcess
class OutOfMemoryDrainTest extends RedisDelayTestSupport {

    private static final int MESSAGES = 5;

    private final Set<String> delivered = ConcurrentHashMap.newKeySet();

    @Test
    void aRunningConsumerDrainsTheQueueWhileRedisIsFull() throws Exception {
        CamelContext node = startNode("running", true);
        scheduleAll(node, "running", 1_500);
        whileFull(() -> awaitDrained("running"));
    }

    @Test
    void aConsumerStartedWhileRedisIsFullDrainsMessagesThatBecameDueMeanwhile() throws Exception {
        // a queue no consumer ever read: only producers ran so far
        CamelContext node = startNode("fresh", false);
        scheduleAll(node, "fresh", 1_000);
        whileFull(() -> {
            await("the transfer made the messages ready while Redis is full").atMost(Duration.ofSeconds(10))
                    .until(() -> redis().getStream(key("fresh", "ready")).size() == MESSAGES);
            node.getRouteController().startRoute("consumer");
            awaitDrained("fresh");
        });
    }

    @Test
    void aConsumerStartedWhileRedisIsFullDrainsMessagesScheduledDueAtOnce() throws Exception {
        CamelContext node = startNode("due-now", false);
        scheduleAll(node, "due-now", 0);
        whileFull(() -> {
            node.getRouteController().startRoute("consumer");
            awaitDrained("due-now");
        });
    }

    @Test
    void cancelAndPurgeFreeMemoryWhileRedisIsFull() throws Exception {
        CamelContext node = startNode("later", false);
        scheduleAll(node, "later", 3_600_000);
        ProducerTemplate producer = node.createProducerTemplate();
        whileFull(() -> {
            assertThat(producer.requestBodyAndHeader("redis-delay:later?operation=cancel", null,
                    RedisDelayConstants.MESSAGE_ID, "m0", Boolean.class)).as("cancel while Redis is full").isTrue();
            producer.sendBodyAndHeader("redis-delay:later?operation=purge", null, RedisDelayConstants.CONFIRM, "later");
            assertThat(redis().getMap(key("later", "msg")).size()).as("records left after the purge").isZero();
        });
    }

    private CamelContext startNode(String queue, boolean consumerRuns) throws Exception {
        return startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:" + queue).routeId("consumer").autoStartup(consumerRuns)
                        .process(e -> delivered.add(e.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID, String.class)));
            }
        });
    }

    private static void scheduleAll(CamelContext node, String queue, long delay) {
        ProducerTemplate producer = node.createProducerTemplate();
        for (int i = 0; i < MESSAGES; i++) {
            producer.sendBodyAndHeaders("redis-delay:" + queue, "order-" + i,
                    Map.of(RedisDelayConstants.MESSAGE_ID, "m" + i, RedisDelayConstants.DELAY, delay));
        }
    }

    /** Runs {@code action} while Redis refuses every write that needs memory (maxmemory 1, policy noeviction). */
    private void whileFull(ThrowingRunnable action) throws Exception {
        var server = redis().getRedisNodes(RedisNodes.SINGLE).getInstance();
        assertThat(server.getConfig("maxmemory-policy")).containsEntry("maxmemory-policy", "noeviction");
        server.setConfig("maxmemory", "1");
        try {
            action.run();
        } finally {
            server.setConfig("maxmemory", "0");
        }
    }

    /** Every message delivered and acknowledged: its record gone, its memory free. */
    private void awaitDrained(String queue) {
        await("queue " + queue + " drained while Redis is full").atMost(Duration.ofSeconds(15))
                .untilAsserted(() -> {
                    assertThat(delivered).as("messages delivered").hasSize(MESSAGES);
                    assertThat(redis().getMap(key(queue, "msg")).size()).as("records left").isZero();
                });
    }

    private interface ThrowingRunnable {
        void run() throws Exception;
    }
}
