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
 * A write of a migration task that Redis refused because the task no longer holds the migration lease: it ran out while
 * the task stalled, and another task took over (see {@link MigrationLease}).
 */
public final class MigrationLeaseLostException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final long latestFence;

    MigrationLeaseLostException(String message, long latestFence) {
        super(message);
        this.latestFence = latestFence;
    }

    /**
     * The lease number of the task whose writes the queue shard takes now, or 0 when the legacy side refused. Passed to
     * the next claim, it lifts a lease counter that was lost above that number.
     */
    public long latestFence() {
        return latestFence;
    }
}
