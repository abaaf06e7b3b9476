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
import java.util.concurrent.atomic.AtomicInteger;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.CommandStats;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a context with a consumer and a producer on each of many queues sends Redis while nothing is scheduled, and
 * again once a burst is delivered: per queue, the safety nets the component page names (a read a second per consumer
 * thread, a transfer a second, a shard-count check of the queue and of its dead-letter queue every 10 s, a look for
 * expired leases every half visibility timeout), nothing that grows faster, and no fast polling left after a burst.
 */
@CamelSide
class IdleQueuesCostTest extends RedisDelayTestSupport {

    private static final int QUEUES = 50;
    private static final int WINDOW_S = 5;
    /** Reads of one idle consumer thread in the window: one a second, the window's edges included. */
    private static final int READS_PER_QUEUE = WINDOW_S + 2;
    /** Transfers (1 s), the two shard-count checks (10 s) and looks for expired leases (15 s) of one queue. */
    private static final int SCRIPTS_PER_QUEUE = (WINDOW_S + 2) + 2 * (WINDOW_S / 10 + 2) + (WINDOW_S / 15 + 2);

    @Test
    void idleQueuesCostOnlyTheirSafetyNetsBeforeAndAfterABurst() throws Exception {
        AtomicInteger delivered = new AtomicInteger();
        ProducerTemplate producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                for (int i = 0; i < QUEUES; i++) {
                    from("redis-delay:tenant-" + i).routeId("tenant-" + i).process(e -> delivered.incrementAndGet());
                    from("direct:tenant-" + i).to("redis-delay:tenant-" + i + "?delay=200");
                }
            }
        }).createProducerTemplate();
        // every consumer has read (its group made the queue's ready stream), then the start's own calls end
        await("every consumer's first read").atMost(Duration.ofSeconds(20))
                .until(() -> redis().getKeys().countExists(keysOfEveryQueue("ready")) == QUEUES);
        pause(Duration.ofSeconds(2));
        assertIdle("before any message");

        int perQueue = 20;
        for (int i = 0; i < QUEUES; i++) {
            for (int j = 0; j < perQueue; j++) {
                producer.sendBody("direct:tenant-" + i, "message " + j);
            }
        }
        await("the burst").atMost(Duration.ofSeconds(60)).until(() -> delivered.get() == QUEUES * perQueue);
        // busy consumers block in Redis for up to 250 ms after their last message
        pause(Duration.ofSeconds(1));
        assertIdle("after a burst");
    }

    private void assertIdle(String when) {
        Map<String, Long> before = CommandStats.calls(redis());
        pause(Duration.ofSeconds(WINDOW_S));
        Map<String, Long> after = CommandStats.calls(redis());
        long reads = after.getOrDefault("xreadgroup", 0L) - before.getOrDefault("xreadgroup", 0L);
        long scripts = after.getOrDefault("evalsha", 0L) - before.getOrDefault("evalsha", 0L);
        assertThat(reads).as("reads of %d idle consumers in %d s, %s", QUEUES, WINDOW_S, when)
                .isLessThanOrEqualTo((long) QUEUES * READS_PER_QUEUE);
        assertThat(scripts).as("scripts of %d idle queues in %d s, %s", QUEUES, WINDOW_S, when)
                .isLessThanOrEqualTo((long) QUEUES * SCRIPTS_PER_QUEUE);
    }

    private String[] keysOfEveryQueue(String structure) {
        String[] keys = new String[QUEUES];
        for (int i = 0; i < QUEUES; i++) {
            keys[i] = key("tenant-" + i, structure);
        }
        return keys;
    }

    private static void pause(Duration duration) {
        await().pollDelay(duration).atMost(duration.plusSeconds(1)).until(() -> true);
    }
}
