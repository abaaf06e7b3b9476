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
import io.github.camelredisdelay.internal.MigrationProgress;
import io.github.camelredisdelay.internal.MigrationTask;
import io.github.camelredisdelay.internal.ShardedQueue;
import io.github.camelredisdelay.internal.WriteSync;
import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.junit.jupiter.api.Test;
import org.redisson.client.codec.StringCodec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two queues whose consumers name the same RDelayedQueue in {@code migrateFrom} (a route copied for another queue,
 * say): the migration lease alone would let whichever node claims first take the messages, so that they end up split
 * between the queues across restarts. The queue that migrates it keeps it; the other is refused, loudly, and takes
 * nothing.
 */
class SameLegacyQueueTwoQueuesTest extends RedisDelayTestSupport {

    private final String legacy = "legacy-" + UUID.randomUUID().toString().substring(0, 8);

    private MigrationTask migrationInto(String queueName) {
        ShardedQueue queue
                = ShardedQueue.of(ConnectedClient.borrowed(redis()), keyPrefix, queueName, 1, WriteSync.NONE, Runnable::run);
        return new MigrationTask(
                new LegacyDelayedQueue(ConnectedClient.borrowed(redis()), keyPrefix, legacy), queue,
                value -> EnvelopeCodec.encode(new Envelope(new String(value, StandardCharsets.UTF_8), Map.of())));
    }

    private void due(String value) {
        // already due: in Redisson's destination list
        redis().getList(legacy, StringCodec.INSTANCE).add(value);
    }

    @Test
    void aSecondQueueNamingTheSameLegacyQueueTakesNothingEvenWhenTheFirstOnesLeaseRanOut() {
        MigrationTask orders = migrationInto("orders");
        due("order-1");
        await().atMost(Duration.ofSeconds(5)).until(() -> {
            orders.step();
            return orders.progress().left() == 0;
        });
        // the node migrating into orders restarts: its lease runs out (here at once, rather than after its 5 s)
        assertThat(redis().getBucket(keyPrefix + ":migrate:{" + legacy + "}:owner").delete()).isTrue();
        due("order-2");

        try (LogLines log = LogLines.of(MigrationProgress.class)) {
            MigrationTask copied = migrationInto("invoices");
            copied.step();
            copied.step();

            assertThat(redis().getMap(key("invoices", "msg")).isExists()).as("nothing migrated into invoices").isFalse();
            assertThat(log.lines()).filteredOn(line -> line.startsWith("ERROR")).singleElement().asString()
                    .contains("RDelayedQueue " + legacy, "queue invoices", "queue orders", "migrateFrom");
        }
        orders.step();
        assertThat(redis().getMap(key("orders", "msg")).size()).as("both in orders").isEqualTo(2);
    }
}
