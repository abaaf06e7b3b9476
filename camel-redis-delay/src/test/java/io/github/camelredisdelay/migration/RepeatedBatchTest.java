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

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.internal.Envelope;
import io.github.camelredisdelay.internal.EnvelopeCodec;
import io.github.camelredisdelay.internal.LegacyBatch;
import io.github.camelredisdelay.internal.LegacyDelayedQueue;
import io.github.camelredisdelay.internal.MigrationTask;
import io.github.camelredisdelay.internal.ShardedQueue;
import io.github.camelredisdelay.internal.WriteSync;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A migration that stopped between writing a batch to the new queue and removing it from the legacy keys (a crash)
 * repeats the batch when it resumes; messages delivered and acknowledged in between are not delivered again.
 */
class RepeatedBatchTest extends RedisDelayTestSupport {

    @Test
    void batchRepeatedAfterACrashBetweenWriteAndRemoveIsNotDeliveredTwice() throws Exception {
        String legacy = "legacy-" + UUID.randomUUID().toString().substring(0, 8);
        try (OldRedissonNode old = new OldRedissonNode(legacy)) {
            for (int i = 0; i < 5; i++) {
                old.offer("m" + i, 0);
            }
        }
        List<String> delivered = new CopyOnWriteArrayList<>();
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders").process(exchange -> delivered.add(exchange.getIn().getBody(String.class)));
            }
        });
        LegacyDelayedQueue legacyQueue = new LegacyDelayedQueue(redis(), keyPrefix, legacy);
        ShardedQueue queue = ShardedQueue.of(redis(), keyPrefix, "orders", 1, WriteSync.NONE, Runnable::run);

        // the crashed migrator: claimed and wrote, never removed (its lease runs out)
        LegacyBatch batch = legacyQueue.claim("crashed", 1000, MigrationTask.BATCH_SIZE);
        assertThat(batch.messages()).hasSize(5);
        queue.first().migration().migrate(batch.messages(), batch.messages().stream().map(m -> envelope(m.value())).toList());
        await().atMost(Duration.ofSeconds(5)).until(() -> delivered.size() == 5);
        await().atMost(Duration.ofSeconds(5)).until(() -> queue.size() == 0);

        // the migrator that takes over repeats the batch
        MigrationTask resumed = new MigrationTask(legacyQueue, queue, RepeatedBatchTest::envelope);
        await().atMost(Duration.ofSeconds(5)).until(() -> {
            resumed.step();
            return resumed.progress().moved() == 5 && resumed.progress().left() == 0;
        });
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2)).until(() -> delivered.size() == 5);
        assertThat(delivered).doesNotHaveDuplicates();
        assertThat(redis().getSet(key("orders", "migrated")).size()).isZero();
    }

    private static byte[] envelope(byte[] value) {
        return EnvelopeCodec.encode(new Envelope(new String(value, StandardCharsets.UTF_8), Map.of()));
    }
}
