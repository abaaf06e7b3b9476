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
import java.util.concurrent.CountDownLatch;

import io.github.camelredisdelay.internal.ConsumerNames;
import io.github.camelredisdelay.internal.QueueKeys;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RStream;
import org.redisson.api.stream.StreamMessageId;
import org.redisson.api.stream.StreamReadGroupArgs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A consumer node killed (kill -9, an OOM kill) while it holds a message leaves the message's lease to expire, and no
 * other consumer runs to take it over: the message waits for a consumer as much as a ready one, and oldest overdue, the
 * figure the overdue alert watches, must show it.
 */
class DeadConsumerOverdueTest extends RedisDelayTestSupport {

    private static final long VISIBILITY_MS = 500;

    private final CountDownLatch fetched = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void releaseConsumer() {
        release.countDown();
    }

    @Test
    void aMessageLeftByAKilledConsumerIsOverdueOnceItsLeaseExpired() throws Exception {
        ProducerTemplate producer = startContext().createProducerTemplate();
        producer.sendBodyAndHeader("redis-delay:jobs", "job", RedisDelayConstants.MESSAGE_ID, "job");
        RStream<Object, Object> ready = redis().getStream(key("jobs", "ready"));
        await().atMost(Duration.ofSeconds(5)).until(() -> ready.size() == 1);
        // what a consumer node killed after its fetch leaves in Redis: the entry leased to it, never settled
        assertThat(ready.readGroup(QueueKeys.GROUP, ConsumerNames.unique(VISIBILITY_MS),
                StreamReadGroupArgs.neverDelivered().count(1))).hasSize(1);
        // its lease expired three times over: no consumer works on it any more
        await().atMost(Duration.ofSeconds(10)).until(() -> ready
                .listPending(QueueKeys.GROUP, StreamMessageId.MIN, StreamMessageId.MAX, 1).get(0)
                .getIdleTime() >= 3 * VISIBILITY_MS);

        @SuppressWarnings("unchecked")
        Map<String, Object> stats = producer.requestBody("redis-delay:jobs?operation=stats", null, Map.class);

        assertThat(stats).containsEntry("inFlight", 1L).containsEntry("ready", 0L);
        assertThat((Long) stats.get("oldestOverdueMs")).as("oldest overdue of a message whose consumer died")
                .isGreaterThanOrEqualTo(3 * VISIBILITY_MS);
    }

    @Test
    void aMessageALiveConsumerWorksOnLongerThanItsVisibilityTimeoutIsNotOverdue() throws Exception {
        ProducerTemplate producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs?visibilityTimeout=" + VISIBILITY_MS).process(e -> {
                    fetched.countDown();
                    release.await();
                });
            }
        }).createProducerTemplate();
        producer.sendBodyAndHeader("redis-delay:jobs", "job", RedisDelayConstants.MESSAGE_ID, "job");
        await().atMost(Duration.ofSeconds(5)).until(() -> fetched.getCount() == 0);
        long fetchedAt = System.nanoTime();
        // the consumer keeps its lease alive for four visibility timeouts
        await().atMost(Duration.ofSeconds(5)).until(() -> System.nanoTime() - fetchedAt >= 4 * VISIBILITY_MS * 1_000_000);

        @SuppressWarnings("unchecked")
        Map<String, Object> stats = producer.requestBody("redis-delay:jobs?operation=stats", null, Map.class);

        assertThat(stats).containsEntry("inFlight", 1L).containsEntry("ready", 0L).containsEntry("oldestOverdueMs", 0L);
    }
}
