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
import java.util.Map;
import java.util.UUID;

import io.github.camelredisdelay.internal.ConnectedClient;
import io.github.camelredisdelay.internal.Envelope;
import io.github.camelredisdelay.internal.EnvelopeCodec;
import io.github.camelredisdelay.internal.LegacyDelayedQueue;
import io.github.camelredisdelay.internal.MigrationTask;
import io.github.camelredisdelay.internal.ShardedQueue;
import io.github.camelredisdelay.internal.WriteSync;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.junit.jupiter.api.Test;
import org.redisson.client.codec.StringCodec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two RDelayedQueues migrated into one queue (consumers of the queue naming one each): each keeps every message, though
 * the same value may wait in both.
 */
class MergedLegacyQueuesTest extends RedisDelayTestSupport {

    @Test
    void theSameValueDueInTwoLegacyQueuesIsMigratedFromEachAsAMessageOfItsOwn() {
        ShardedQueue queue
                = ShardedQueue.of(ConnectedClient.borrowed(redis()), keyPrefix, "orders", 1, WriteSync.NONE, Runnable::run);
        for (int i = 0; i < 2; i++) {
            String legacy = "legacy-" + UUID.randomUUID().toString().substring(0, 8);
            // already due: in the destination list, where no random id sets the two apart
            redis().getList(legacy, StringCodec.INSTANCE).add("order-42");
            MigrationTask task = new MigrationTask(
                    new LegacyDelayedQueue(ConnectedClient.borrowed(redis()), keyPrefix, legacy), queue,
                    value -> EnvelopeCodec.encode(new Envelope(new String(value, StandardCharsets.UTF_8), Map.of())));
            await().atMost(Duration.ofSeconds(5)).until(() -> {
                task.step();
                return task.progress().left() == 0;
            });
        }

        assertThat(redis().getMap(key("orders", "msg")).size()).as("messages stored in the queue").isEqualTo(2);
    }
}
