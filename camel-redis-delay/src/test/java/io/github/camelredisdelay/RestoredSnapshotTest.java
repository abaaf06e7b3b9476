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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.redisson.client.codec.ByteArrayCodec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Redis' data goes back in time while the application runs, as when an operator restores an older snapshot: the queue's
 * keys are replaced with the values they had before (DUMP, then RESTORE, which keeps the consumer group, its pending
 * entries and its last delivered id).
 */
class RestoredSnapshotTest extends RedisDelayTestSupport {

    @Test
    void aFailedDeliveryOfAMessageTheRestoredSnapshotLacksIsLoggedAsLost() throws Exception {
        // not retried: Redis holds the message no more, and nobody delivers it again
        assertThat(linesAboutOrderFailingAfterARestore("visibilityTimeout=5s")).singleElement().asString()
                .startsWith("WARN").contains("shop unavailable", "restored from an older snapshot");
    }

    @Test
    void aLastFailedDeliveryOfAMessageTheRestoredSnapshotLacksIsLoggedAsLost() throws Exception {
        // not dead-lettered either
        assertThat(linesAboutOrderFailingAfterARestore("visibilityTimeout=5s&maxDeliveries=1")).singleElement().asString()
                .startsWith("WARN").contains("shop unavailable", "not dead-lettered", "restored from an older snapshot");
    }

    /**
     * Starts a consumer whose route fails, takes a snapshot of the queue's keys, schedules order-1 and, while its
     * delivery runs, restores the snapshot; returns what the consumer logged about order-1 once the route failed.
     */
    private List<String> linesAboutOrderFailingAfterARestore(String endpointOptions) throws Exception {
        CountDownLatch fetched = new CountDownLatch(1);
        CountDownLatch restored = new CountDownLatch(1);
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from("redis-delay:orders?" + endpointOptions).process(e -> {
                    fetched.countDown();
                    restored.await(20, TimeUnit.SECONDS);
                    throw new IllegalStateException("shop unavailable");
                });
            }
        });
        await("the consumer group").atMost(Duration.ofSeconds(10))
                .until(() -> redis().getStream(key("orders", "ready")).isExists());
        Map<String, byte[]> snapshot = new HashMap<>();
        redis().getKeys().getKeysByPattern(keyPrefix + ":*")
                .forEach(key -> snapshot.put(key, redis().getBucket(key, ByteArrayCodec.INSTANCE).dump()));

        startContext().createProducerTemplate().sendBodyAndHeader("redis-delay:orders", "order",
                RedisDelayConstants.MESSAGE_ID, "order-1");
        assertThat(fetched.await(10, TimeUnit.SECONDS)).as("order-1 delivered").isTrue();
        redis().getKeys().getKeysByPattern(keyPrefix + ":*").forEach(key -> redis().getKeys().delete(key));
        snapshot.forEach((key, value) -> redis().getBucket(key, ByteArrayCodec.INSTANCE).restore(value));

        try (LogLines log = LogLines.of(Settlement.class)) {
            restored.countDown();
            await("the failure logged").atMost(Duration.ofSeconds(10))
                    .until(() -> log.lines().stream().anyMatch(line -> line.contains("order-1")));
            return log.lines().stream().filter(line -> line.contains("order-1")).toList();
        }
    }
}
