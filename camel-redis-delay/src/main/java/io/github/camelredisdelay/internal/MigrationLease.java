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

/**
 * The lease under which a migration task writes: the legacy queue it migrates, the task's token and the number its
 * lease got ({@code legacy-claim.lua}). The legacy keys take only the holder's removals, and the queue refuses the
 * writes of a lower number once a higher one wrote, so a task whose lease ran out while it stalled can neither write a
 * batch again after the task that took over moved it, nor remove or unmark one under that task.
 *
 * @param legacyQueue the name of the Redisson {@code RDelayedQueue} being migrated
 * @param owner       the token of the task holding the lease
 * @param fence       the number of the lease; each new holder gets the next
 */
public record MigrationLease(String legacyQueue, String owner, long fence) {

    /**
     * The failure of a write refused under this lease: by a queue shard where the lease number {@code latestFence}
     * wrote, or by the legacy keys ({@code latestFence} 0).
     */
    MigrationLeaseLostException lost(String what, long latestFence) {
        return new MigrationLeaseLostException(
                "Migration from RDelayedQueue " + legacyQueue + ": " + what + " refused, the migration lease (number " + fence
                                               + ") ran out and another task"
                                               + (latestFence > 0 ? " (number " + latestFence + ")" : "")
                                               + " took over; the batch is left to it",
                latestFence);
    }
}
