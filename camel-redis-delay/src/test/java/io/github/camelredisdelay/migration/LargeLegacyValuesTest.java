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
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.internal.ConnectedClient;
import io.github.camelredisdelay.internal.LegacyBatch;
import io.github.camelredisdelay.internal.LegacyDelayedQueue;
import io.github.camelredisdelay.internal.LegacyMessage;
import io.github.camelredisdelay.internal.MigrationTask;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.redisson.client.codec.StringCodec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An RDelayedQueue of large values: each step of the migration carries about a megabyte of them, not
 * {@value MigrationTask#BATCH_SIZE} messages whatever their size, which could hold Redis for seconds and outlast the
 * client's timeout on every try.
 */
class LargeLegacyValuesTest extends RedisDelayTestSupport {

    private static final int VALUE_BYTES = 256 * 1024;
    private static final long MEGABYTE = 1 << 20;

    private final List<String> delivered = new CopyOnWriteArrayList<>();

    @Test
    void aClaimCarriesAboutAMegabyteOfLargeValuesNotAWholeBatchOfThem() {
        LegacyKeys keys = new LegacyKeys("legacy-" + UUID.randomUUID().toString().substring(0, 8), keyPrefix);
        offerLongAgo(keys, values("pending", 12));
        redis().getList(keys.destination(), StringCodec.INSTANCE).addAll(values("ready", 12));

        LegacyBatch batch = new LegacyDelayedQueue(ConnectedClient.borrowed(redis()), keyPrefix, keys.name())
                .claim("task", "orders", 5_000, MigrationTask.BATCH_SIZE);

        List<LegacyMessage> messages = batch.messages();
        long allButTheLast = messages.subList(0, messages.size() - 1).stream().mapToLong(m -> m.member().length).sum();
        assertThat(messages).as("messages of a claim").isNotEmpty().hasSizeLessThan(24);
        assertThat(allButTheLast).as("bytes of the members before the last one").isLessThan(
                MEGABYTE);
        assertThat(redis().getList(keys.destination(), StringCodec.INSTANCE).size())
                .as("values left in the destination list").isPositive();
    }

    @Test
    void largeValuesAreAllMigratedWholeWhileTheOldQueueGetsMore() throws Exception {
        LegacyKeys keys = new LegacyKeys("legacy-" + UUID.randomUUID().toString().substring(0, 8), keyPrefix);
        List<String> expected = new ArrayList<>(values("pending", 12));
        offerLongAgo(keys, expected);
        List<String> ready = values("ready", 12);
        redis().getList(keys.destination(), StringCodec.INSTANCE).addAll(ready);
        expected.addAll(ready);

        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders?migrateFrom=" + keys.name() + "&migrateCodec=string")
                        .process(exchange -> delivered.add(exchange.getIn().getBody(String.class)));
            }
        });
        await().atMost(Duration.ofSeconds(20)).until(() -> !delivered.isEmpty());
        // offered while the migration runs, beside what it took over
        List<String> later = values("later", 12);
        offerLongAgo(keys, later);
        expected.addAll(later);

        await().atMost(Duration.ofSeconds(30)).until(() -> delivered.size() >= expected.size());
        assertThat(delivered).containsExactlyInAnyOrderElementsOf(expected);
        await().atMost(Duration.ofSeconds(10)).until(() -> keys.left(redis()) == 0);
    }

    /** {@code count} values of {@value #VALUE_BYTES} characters, each starting with its name. */
    private static List<String> values(String name, int count) {
        List<String> values = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String head = name + "-" + i + ":";
            values.add(head + "x".repeat(VALUE_BYTES - head.length()));
        }
        return values;
    }

    /** Writes the values as Redisson's offer does (an 8-byte random id, then the value), due long ago. */
    private void offerLongAgo(LegacyKeys keys, List<String> values) {
        values.forEach(value -> keys.offerDueAt(redis(), value, 1000));
    }
}
