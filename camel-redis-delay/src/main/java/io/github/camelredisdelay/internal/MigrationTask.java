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
 * removed from the legacy side ({@code legacy-remove.lua}), then unmarked: a batch repeated after a crash between the
 * steps is never delivered twice. One task per legacy queue migrates at a time (a lease in Redis); the others wait as
 * stand-ins.
 */
public final class MigrationTask {

    /** Messages per step: each script call stays far below a millisecond per hundred messages. */
    public static final int BATCH_SIZE = 500;
    /** Renewed by every step; a task that stopped (or died) hands over to another after this long. */
    private static final long LEASE_MS = 5_000;

    private final LegacyDelayedQueue legacy;
    private final ShardedQueue queue;
    private final Function<byte[], byte[]> envelopeOf;
    private final String owner = MessageIds.next();
    private final MigrationProgress progress;

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
        LegacyBatch batch = legacy.claim(owner, LEASE_MS, BATCH_SIZE);
        List<LegacyMessage> messages = batch.messages();
        if (messages.isEmpty()) {
            progress.record(batch.owned(), 0, batch.left());
            return false;
        }
        Map<QueueShard, List<LegacyMessage>> byShard = new LinkedHashMap<>();
        for (LegacyMessage message : messages) {
            byShard.computeIfAbsent(queue.forMessage(message.id()), shard -> new ArrayList<>()).add(message);
        }
        byShard.forEach(
                (shard, part) -> shard.migration().migrate(part, part.stream().map(m -> envelopeOf.apply(m.value())).toList()));
        legacy.remove(messages);
        byShard.forEach((shard, part) -> shard.migration().forgetMigrated(part));
        progress.record(true, messages.size(), batch.left() - messages.size());
        return messages.size() == BATCH_SIZE;
    }
}
