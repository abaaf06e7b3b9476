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

import io.github.camelredisdelay.internal.ConnectedClient;
import io.github.camelredisdelay.internal.Envelope;
import io.github.camelredisdelay.internal.EnvelopeCodec;
import io.github.camelredisdelay.internal.LegacyBatch;
import io.github.camelredisdelay.internal.LegacyDelayedQueue;
import io.github.camelredisdelay.internal.MigrationLeaseLostException;
import io.github.camelredisdelay.internal.MigrationProgress;
import io.github.camelredisdelay.internal.MigrationTask;
import io.github.camelredisdelay.internal.ShardedQueue;
import io.github.camelredisdelay.internal.WriteSync;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RBucket;
import org.redisson.api.RSet;
import org.redisson.client.codec.StringCodec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A migration that stopped between writing a batch to the new queue and removing it from the legacy keys (a crash)
 * repeats the batch when it resumes; messages delivered and acknowledged in between are not delivered again. One that
 * stopped after the removal leaves no marks behind either: the migrator that takes over clears them.
 */
class RepeatedBatchTest extends RedisDelayTestSupport {

    private final List<String> delivered = new CopyOnWriteArrayList<>();
    /** The RDelayedQueue of five messages a migration takes over. */
    private LegacyDelayedQueue legacyQueue;
    /** The queue "orders" they migrate to, with a route recording what it delivers. */
    private ShardedQueue queue;
    /** Another queue, "invoices", whose route records what it delivers alike. */
    private ShardedQueue invoices;

    @BeforeEach
    void legacyQueueOfFiveAndTheQueueItMigratesTo() throws Exception {
        legacyQueue = legacyQueueOfFive();
        queue = consumedQueue();
        invoices = ShardedQueue.of(ConnectedClient.borrowed(redis()), keyPrefix, "invoices", 1, WriteSync.NONE,
                Runnable::run);
    }

    @Test
    void batchRepeatedAfterACrashBetweenWriteAndRemoveIsNotDeliveredTwice() throws Exception {

        // the crashed migrator: claimed and wrote, never removed (its lease runs out)
        LegacyBatch batch = legacyQueue.claim("crashed", "orders", 1000, MigrationTask.BATCH_SIZE);
        assertThat(batch.messages()).hasSize(5);
        write(queue, batch);
        await().atMost(Duration.ofSeconds(5)).until(() -> delivered.size() == 5);
        await().atMost(Duration.ofSeconds(5)).until(() -> queue.size() == 0);

        // the migrator that takes over repeats the batch
        MigrationTask resumed = resumeAfterLease(legacyQueue, queue);
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2)).until(() -> delivered.size() == 5);
        assertThat(delivered).doesNotHaveDuplicates();
        assertThat(resumed.progress().moved()).isEqualTo(5);
        assertThat(marks()).isEmpty();
    }

    /**
     * The guide's way to move a migration to another queue (stop the first queue's and start the other 10 minutes
     * later) after a crash between write and remove: the marks that keep the repeated batch from being stored twice are
     * the first queue's, so the other queue must not take the batch before a migrator of the first queue settled it.
     */
    @Test
    void aMigrationMovedToAnotherQueueAfterACrashWaitsUntilTheFirstQueueSettledTheBatchItMayHaveWritten()
            throws Exception {
        LegacyBatch batch = legacyQueue.claim("crashed", "orders", 200, MigrationTask.BATCH_SIZE);
        write(queue, batch);
        await().atMost(Duration.ofSeconds(5)).until(() -> delivered.size() == 5);
        tenMinutesPass();

        MigrationTask intoInvoices = new MigrationTask(legacyQueue, invoices, RepeatedBatchTest::envelope);
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> {
            intoInvoices.step();
            return intoInvoices.progress().moved() == 0;
        });

        // a consumer of orders runs again (a restart), settles the batch and stops; ten minutes later invoices moves on
        resumeAfterLease(legacyQueue, queue);
        tenMinutesPass();
        await().atMost(Duration.ofSeconds(5)).until(() -> {
            intoInvoices.step();
            return intoInvoices.progress().left() == 0;
        });
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2)).until(() -> delivered.size() == 5);
        assertThat(delivered).doesNotHaveDuplicates();
    }

    @Test
    void marksOfABatchRemovedJustBeforeACrashAreClearedByTheMigratorThatTakesOver() throws Exception {

        // the crashed migrator: claimed, wrote and removed the batch, never cleared the marks of its ids
        LegacyBatch batch = legacyQueue.claim("crashed", "orders", 1000, MigrationTask.BATCH_SIZE);
        write(queue, batch);
        assertThat(legacyQueue.remove(batch.lease(), batch.messages())).isZero();
        assertThat(marks()).hasSize(5);
        await().atMost(Duration.ofSeconds(5)).until(() -> delivered.size() == 5);

        resumeAfterLease(legacyQueue, queue);
        assertThat(marks()).as("ids still marked as being migrated").isEmpty();
        assertThat(delivered).hasSize(5).doesNotHaveDuplicates();
    }

    @Test
    void aMigratorWhoseLeaseRanOutWhileItStalledWritesNothingAfterTheOneThatTookOver() throws Exception {

        // the stalled migrator claimed the batch (a long GC pause, say) and its lease ran out before it wrote it
        LegacyBatch stalled = legacyQueue.claim("stalled", "orders", 200, MigrationTask.BATCH_SIZE);
        assertThat(stalled.messages()).hasSize(5);
        // the migrator that took over moved everything, and the route delivered and acknowledged it
        resumeAfterLease(legacyQueue, queue);
        await().atMost(Duration.ofSeconds(5)).until(() -> delivered.size() == 5 && queue.size() == 0);
        assertThat(marks()).isEmpty();

        // the stalled one wakes up and writes its batch
        assertThatThrownBy(() -> write(queue, stalled)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("lease");

        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2)).until(() -> delivered.size() == 5);
        assertThat(delivered).doesNotHaveDuplicates();
    }

    @Test
    void aMigratorWhoseLeaseRanOutCannotRemoveTheBatchItWroteOnceAnotherClaimedIt() throws Exception {
        LegacyBatch stalled = legacyQueue.claim("stalled", "orders", 200, MigrationTask.BATCH_SIZE);
        write(queue, stalled);
        // its lease runs out; another task claims the same batch but has not written yet
        await().atMost(Duration.ofSeconds(5))
                .until(() -> legacyQueue.claim("successor", "orders", 5_000, MigrationTask.BATCH_SIZE).owned());

        assertThatThrownBy(() -> legacyQueue.remove(stalled.lease(), stalled.messages()))
                .isInstanceOf(MigrationLeaseLostException.class);
        assertThat(legacyQueue.claim("successor", "orders", 5_000, MigrationTask.BATCH_SIZE).messages()).hasSize(5);
    }

    @Test
    void aMigrationWhoseLeaseCounterWasLostFinishesAboveTheNumberTheQueueLastSaw() throws Exception {
        // the queue saw lease 7 of this migration; the legacy side's counter is gone (a failover, a deleted key)
        redis().getMap(key("orders", "migrated") + ":fence").put(legacyQueue.name(), "7");

        MigrationTask task = new MigrationTask(legacyQueue, queue, RepeatedBatchTest::envelope);
        // refused once, as LegacyMigration's loop would see it, then above lease 7
        await().atMost(Duration.ofSeconds(5)).ignoreException(MigrationLeaseLostException.class).until(() -> {
            task.step();
            return task.progress().left() == 0;
        });

        await().atMost(Duration.ofSeconds(5)).until(() -> delivered.size() == 5);
    }

    private LegacyDelayedQueue legacyQueueOfFive() throws Exception {
        String legacy = "legacy-" + UUID.randomUUID().toString().substring(0, 8);
        try (OldRedissonNode old = new OldRedissonNode(legacy)) {
            for (int i = 0; i < 5; i++) {
                old.offer("m" + i, 0);
            }
        }
        return new LegacyDelayedQueue(ConnectedClient.borrowed(redis()), keyPrefix, legacy);
    }

    /** The queue "orders", with a route recording what it delivers. */
    private ShardedQueue consumedQueue() throws Exception {
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders").process(exchange -> delivered.add(exchange.getIn().getBody(String.class)));
                from("redis-delay:invoices").process(exchange -> delivered.add(exchange.getIn().getBody(String.class)));
            }
        });
        return ShardedQueue.of(ConnectedClient.borrowed(redis()), keyPrefix, "orders", 1, WriteSync.NONE, Runnable::run);
    }

    private static void write(ShardedQueue queue, LegacyBatch batch) {
        queue.first().migration().migrate(batch.lease(), batch.messages(),
                batch.messages().stream().map(m -> envelope(m.value())).toList());
    }

    /**
     * A migrator that steps until it took over from the crashed one (whose lease runs out) and the legacy queue is
     * empty.
     */
    private static MigrationTask resumeAfterLease(LegacyDelayedQueue legacyQueue, ShardedQueue queue) {
        MigrationTask resumed = new MigrationTask(legacyQueue, queue, RepeatedBatchTest::envelope);
        await().atMost(Duration.ofSeconds(5)).until(() -> {
            resumed.step();
            return MigrationProgress.snapshot(List.of(resumed.progress())).get("migrationActive").equals(true)
                    && resumed.progress().left() == 0;
        });
        return resumed;
    }

    /**
     * What ten minutes do to the key naming the queue the legacy queue migrates into: its time to live, if any, runs
     * out.
     */
    private void tenMinutesPass() {
        RBucket<String> into
                = redis().getBucket(keyPrefix + ":migrate:{" + legacyQueue.name() + "}:into", StringCodec.INSTANCE);
        if (into.remainTimeToLive() > 0) {
            into.expire(Duration.ofMillis(1));
            await().atMost(Duration.ofSeconds(5)).until(() -> !into.isExists());
        }
    }

    private RSet<String> marks() {
        return redis().getSet(key("orders", "migrated"));
    }

    private static byte[] envelope(byte[] value) {
        return EnvelopeCodec.encode(new Envelope(new String(value, StandardCharsets.UTF_8), Map.of()));
    }
}
