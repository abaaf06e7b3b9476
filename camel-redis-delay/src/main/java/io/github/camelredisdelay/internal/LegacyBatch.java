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

import java.util.List;

/**
 * What one claim on a legacy {@code RDelayedQueue} returned (see {@code legacy-claim.lua}).
 *
 * @param owned      whether this task holds the migration lease; when not, {@code messages} is empty
 * @param lease      the lease this task writes the batch under
 * @param pending    messages taken over and not yet migrated, including this batch
 * @param waiting    messages still in Redisson's timeout set (offered since the last take-over)
 * @param ready      values still in Redisson's destination list
 * @param unmark     ids of migrated messages already removed from the legacy keys whose marks on the queue may still be
 *                   set: by a task that died (or failed) before it cleared them; the caller clears them first
 * @param messages   the next messages to migrate, earliest due time first
 * @param otherQueue the queue another task migrates the legacy queue into, when that refused this claim; else
 *                   {@code null}
 */
public record LegacyBatch(boolean owned, MigrationLease lease, long pending, long waiting, long ready, List<String> unmark,
        List<LegacyMessage> messages, String otherQueue) {

    /** A claim refused because a task migrating into {@code otherQueue} claimed the legacy queue lately. */
    static LegacyBatch migratedInto(String otherQueue, MigrationLease lease, long pending, long waiting, long ready) {
        return new LegacyBatch(false, lease, pending, waiting, ready, List.of(), List.of(), otherQueue);
    }

    /** Everything the legacy queue still holds, this batch included. */
    public long left() {
        return pending + waiting + ready;
    }
}
