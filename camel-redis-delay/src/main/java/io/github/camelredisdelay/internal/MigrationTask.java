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
package io.github.camelredisdelay.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Moves what a Redisson {@code RDelayedQueue} holds into a queue, keeping each message's due time. The legacy keys and
 * the queue live on different slots, so each batch is written to the queue first (marked, {@code migrate.lua}), then
 * removed from the legacy side ({@code legacy-remove.lua}), which keeps their ids, then unmarked: a batch repeated
 * after a crash between the steps is never delivered twice, and marks a crash left after the removal are cleared by the
 * task that takes over, which the next claim names them to. One task per legacy queue migrates at a time (a lease in
 * Redis); the others wait as stand-ins. Each lease has a number ({@link MigrationLease}), and the queue refuses the
 * writes of a task whose lease ran out once one with a later lease wrote: a task that stalled (a long GC pause) with a
 * claimed batch cannot write it again after the task that took over moved it.
 */
public final class MigrationTask {

    /**
     * Most messages per step: each script call stays far below a millisecond per hundred messages (large values cut a
     * step short, at {@link BatchLimits#MIGRATION_BATCH_BYTES}).
     */
    public static final int BATCH_SIZE = 500;
    /** Renewed by every step; a task that stopped (or died) hands over to another after this long. */
    private static final long LEASE_MS = 5_000;

    private final LegacyDelayedQueue legacy;
    private final ShardedQueue queue;
    private final Function<byte[], byte[]> envelopeOf;
    private final String owner = MessageIds.next();
    private final MigrationProgress progress;
    /** Whether the marks of every batch this task removed from the legacy keys are cleared. */
    private boolean settled;
    /** The highest lease number a queue shard refused this task's writes for. */
    private long fenceSeen;

    /**
     * @param envelopeOf turns a legacy value (the bytes Redisson's codec wrote) into the envelope to store
     */
    public MigrationTask(LegacyDelayedQueue legacy, ShardedQueue queue, Function<byte[], byte[]> envelopeOf) {
        this.legacy = legacy;
        this.queue = queue;
        this.envelopeOf = envelopeOf;
        this.progress = new MigrationProgress(legacy.name(), queue.name());
    }

    public MigrationProgress progress() {
        return progress;
    }

    /**
     * Moves the next batch.
     *
     * @return whether a full batch moved, so that the next step should follow at once
     */
    public boolean step() {
        try {
            return move();
        } catch (MigrationLeaseLostException e) {
            fenceSeen = Math.max(fenceSeen, e.latestFence());
            throw e;
        }
    }

    private boolean move() {
        LegacyBatch batch = legacy.claim(owner, queue.name(), LEASE_MS, BATCH_SIZE, settled, fenceSeen);
        if (batch.otherQueue() != null) {
            progress.refused(batch.otherQueue(), batch.left());
            return false;
        }
        // unsettled until this step succeeds: an exception below leaves marks the next claim must name again
        settled = false;
        unmark(batch.lease(), batch.unmark());
        List<LegacyMessage> messages = batch.messages();
        if (messages.isEmpty()) {
            settled = true;
            progress.record(batch.owned(), 0, batch.left());
            return false;
        }
        byShard(messages, LegacyMessage::id).forEach((shard, part) -> shard.migration().migrate(batch.lease(), part,
                part.stream().map(m -> envelopeOf.apply(m.value())).toList()));
        legacy.remove(batch.lease(), messages);
        // moved once removed: a failure clearing the marks below leaves them to the next claim, not the batch
        progress.record(true, messages.size(), batch.left() - messages.size());
        unmark(batch.lease(), messages.stream().map(LegacyMessage::id).toList());
        settled = true;
        // a batch cut at its bytes (large values) is as full as one of BATCH_SIZE messages
        return messages.size() == BATCH_SIZE
                || messages.stream().mapToLong(message -> message.member().length).sum() >= BatchLimits.MIGRATION_BATCH_BYTES;
    }

    /** Clears the marks of migrated messages whose legacy copies are removed, on each message's shard. */
    private void unmark(MigrationLease lease, List<String> ids) {
        byShard(ids, id -> id).forEach((shard, part) -> shard.migration().forgetMigrated(lease, part));
    }

    private <T> Map<QueueShard, List<T>> byShard(List<T> items, Function<T, String> idOf) {
        Map<QueueShard, List<T>> byShard = new LinkedHashMap<>();
        for (T item : items) {
            byShard.computeIfAbsent(queue.forMessage(idOf.apply(item)), shard -> new ArrayList<>()).add(item);
        }
        return byShard;
    }
}
