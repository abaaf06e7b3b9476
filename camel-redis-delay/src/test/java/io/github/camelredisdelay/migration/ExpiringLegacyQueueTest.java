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
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.internal.ConnectedClient;
import io.github.camelredisdelay.internal.LegacyBatch;
import io.github.camelredisdelay.internal.LegacyDelayedQueue;
import io.github.camelredisdelay.internal.MigrationTask;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.redisson.client.codec.StringCodec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An application that keeps its {@code RDelayedQueue}'s keys from outliving it ({@code deadlines.expire(...)} after
 * each offer) has a time to live on Redisson's timeout set. The migration takes that set over with {@code RENAME},
 * which carries the time to live to its pending set, where the values it takes from the destination list go too: the
 * messages a migration took over must not vanish with it when it runs out before they are moved (a migrating JVM killed
 * and taken over after its lease, a backlog larger than the migration moves in that time).
 */
class ExpiringLegacyQueueTest extends RedisDelayTestSupport {

    private final List<String> delivered = new CopyOnWriteArrayList<>();

    @Test
    void messagesTakenOverFromAnExpiringRDelayedQueueAreDeliveredAfterItsTimeToLive() throws Exception {
        String legacy = "legacy-" + UUID.randomUUID().toString().substring(0, 8);
        LegacyKeys keys = new LegacyKeys(legacy, keyPrefix);
        try (OldRedissonNode old = new OldRedissonNode(legacy)) {
            for (int i = 0; i < 3; i++) {
                old.offer("m" + i, 3_000);
            }
            old.expire(Duration.ofMillis(1_500));
        }
        // due, moved by an old node's transfer task, not yet taken: no time to live
        redis().getList(legacy, StringCodec.INSTANCE).add("ready");

        // a migrating JVM took everything over and was killed before it wrote a batch
        LegacyDelayedQueue legacyQueue = new LegacyDelayedQueue(ConnectedClient.borrowed(redis()), keyPrefix, legacy);
        LegacyBatch batch = legacyQueue.claim("killed", "orders", 2_500, MigrationTask.BATCH_SIZE);
        assertThat(batch.messages()).hasSize(4);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> !redis().getBucket(keyPrefix + ":migrate:{" + legacy + "}:owner").isExists());

        // the consumers that take over once its lease ran out
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders?migrateFrom=" + legacy + "&migrateCodec=string")
                        .process(e -> delivered.add(e.getIn().getBody(String.class).replaceAll(":.*", "")));
            }
        });
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(delivered).containsExactlyInAnyOrder("ready", "m0", "m1", "m2"));
        assertThat(keys.left(redis())).isZero();
    }
}
