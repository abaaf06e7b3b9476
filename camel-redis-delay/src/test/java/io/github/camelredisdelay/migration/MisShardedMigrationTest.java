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
package io.github.camelredisdelay.migration;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.redisson.client.codec.StringCodec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A consumer with {@code migrateFrom} whose {@code shards} differs from the count its queue is in use with is refused:
 * it reads nothing, its health check is DOWN, its log says so. Its migration must not move the RDelayedQueue's messages
 * into shards the queue's correctly configured consumers never read, removing the legacy copies.
 */
class MisShardedMigrationTest extends RedisDelayTestSupport {

    private static final int MESSAGES = 200;

    private final List<String> delivered = new CopyOnWriteArrayList<>();

    @Test
    void aMigratingConsumerRefusedForItsShardsStrandsNoLegacyMessage() throws Exception {
        String legacy = "legacy-" + UUID.randomUUID().toString().substring(0, 8);
        LegacyKeys legacyKeys = new LegacyKeys(legacy, keyPrefix);
        // the application's consumer, as the queue is used: one shard
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders").process(e -> delivered.add(e.getMessage().getBody(String.class)));
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> "1".equals(
                redis().getMap(keyPrefix + ":{orders}:shards", StringCodec.INSTANCE).get("count")));

        try (OldRedissonNode old = new OldRedissonNode(legacy)) {
            for (int i = 0; i < MESSAGES; i++) {
                old.offer("m" + i, i * 5L);
            }
            List<String> offered = old.offered();

            // a node deployed with migrateFrom and a wrong shard count: its consumer is refused
            startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:orders?shards=4&migrateFrom=" + legacy + "&migrateCodec=string")
                            .process(e -> delivered.add(e.getMessage().getBody(String.class)));
                }
            });

            // time for the migration to run (it starts with its consumer and moves 200 messages in well under a
            // second) and for deliveries
            await().pollDelay(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(4)).until(() -> true);

            long left = legacyKeys.left(redis());
            Set<String> reached = new HashSet<>(delivered);
            List<String> limbo = offered.stream().filter(value -> !reached.contains(value)).toList();
            System.out.printf("legacy messages left in the RDelayedQueue: %d; delivered: %d; neither: %d%n", left,
                    reached.size(), limbo.size());
            assertThat(limbo.size())
                    .as("legacy messages neither delivered nor still in the RDelayedQueue (moved into shards nobody reads)")
                    .isEqualTo(left);
        }
    }
}
