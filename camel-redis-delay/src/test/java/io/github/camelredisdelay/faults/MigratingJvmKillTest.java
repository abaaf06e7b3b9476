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
package io.github.camelredisdelay.faults;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import io.github.camelredisdelay.faults.DeliveryLog.Entry;
import io.github.camelredisdelay.faults.DeliveryLog.Event;
import io.github.camelredisdelay.internal.MigrationTask;
import io.github.camelredisdelay.migration.LegacyKeys;
import io.github.camelredisdelay.migration.OldRedissonNode;
import org.junit.jupiter.api.Test;
import org.redisson.api.RSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The JVM migrating a live RDelayedQueue ({@code migrateFrom}) is killed with SIGKILL while batches are moving, and
 * started again: every legacy message is delivered, none is migrated twice, and the legacy keys end empty.
 * <p>
 * Delivery stays at least once: a message the killed JVM had finished but not yet acknowledged is delivered again, with
 * a higher delivery count, as in {@link ConsumerJvmKillTest}. A message migrated twice would instead be stored afresh
 * and delivered with count 1 a second time; that never happens.
 */
class MigratingJvmKillTest extends FaultTestSupport {

    private static final String QUEUE = "migrated";
    private static final int MESSAGES = 5_000;
    /** Due times from now to this much later: some are due before the migration starts, some after. */
    private static final long SPREAD_MS = 8_000;

    @Test
    void migratingJvmKilledMidBatchAndRestartedLosesAndDuplicatesNothing() throws Exception {
        long started = System.nanoTime();
        String legacy = "legacy-" + UUID.randomUUID().toString().substring(0, 8);
        LegacyKeys legacyKeys = new LegacyKeys(legacy, keyPrefix);
        String options = "migrateFrom=" + legacy + "&migrateCodec=string&visibilityTimeout=2s&concurrentConsumers=2";
        DeliveryLog deliveryLog = redisDeliveryLog();
        // the old node's transfer task keeps moving due messages into the destination list, which nobody takes
        try (OldRedissonNode old = new OldRedissonNode(legacy)) {
            for (int i = 0; i < MESSAGES; i++) {
                old.offer("m" + i, i * SPREAD_MS / MESSAGES);
            }
            List<String> offered = old.offered();

            ConsumerJvm victim = launchConsumerJvm(QUEUE, options, 0, true);
            // a batch is written to the queue and not yet settled (its ids are marked), and more batches are to follow
            await("a migration batch in flight, more to follow").atMost(JVM_START_TIMEOUT)
                    .pollInterval(Duration.ofMillis(2))
                    .failFast(victim + " exited", () -> !victim.isAlive())
                    .until(() -> !marks().isEmpty() && legacyKeys.left(redis()) > MigrationTask.BATCH_SIZE);
            victim.kill();
            long leftAtKill = legacyKeys.left(redis());
            int marksAtKill = marks().size();
            assertThat(leftAtKill).as("legacy messages not migrated when the JVM was killed").isPositive();

            launchConsumerJvm(QUEUE, options, 0, true).awaitReady(redis(), JVM_START_TIMEOUT);
            // the new JVM takes over once the killed one's lease (5 s) runs out
            deliveryLog.awaitFinished(offered, Duration.ofMinutes(2));
            await("legacy queue empty").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                    .until(() -> legacyKeys.left(redis()) == 0);
            awaitQueueDrained(QUEUE);
            stopConsumerJvms();

            Deliveries deliveries = deliveryLog.read();
            Tally tally = deliveries.tally(offered).report("migrating JVM kill -9 mid-batch, restarted",
                    Duration.ofNanos(System.nanoTime() - started),
                    "legacyLeftAtKill=" + leftAtKill + " marksAtKill=" + marksAtKill + " interrupted="
                                                                   + deliveries.interruptedAt(victim.consumerName())
                                                                           .size()
                                                                   + " duplicated=" + deliveries.duplicatedIds());
            assertThat(tally.lost()).as("legacy messages never delivered").isEmpty();
            assertThat(deliveries.deliveredAfreshTwice()).as("legacy messages migrated twice").isEmpty();
            for (String body : deliveries.duplicatedIds()) {
                List<Entry> finished = deliveries.of(body).stream().filter(e -> e.event() == Event.FINISHED).toList();
                assertThat(finished).as("finished deliveries of %s", body).hasSize(2);
                assertThat(finished.get(0).consumer()).as("first delivery of %s", body).isEqualTo(victim.consumerName());
                assertThat(finished.get(1).deliveryCount()).as("redelivery of %s", body)
                        .isGreaterThan(finished.get(0).deliveryCount());
            }
            assertThat(legacyKeys.existing(redis())).as("legacy keys left").isEmpty();
            assertThat(marks()).as("ids still marked as being migrated").isEmpty();
        }
    }

    /** Ids written by a batch that is not yet removed from the legacy keys. */
    private RSet<String> marks() {
        return redis().getSet(key(QUEUE, "migrated"));
    }
}
