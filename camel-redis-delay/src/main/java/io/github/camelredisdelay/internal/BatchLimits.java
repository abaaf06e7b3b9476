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
 * How much one script call carries at most, so that no call blocks Redis for long.
 */
public final class BatchLimits {

    /** Most concurrent schedules sent together in one call ({@link GroupCommit}). */
    public static final int GROUP_COMMIT_MESSAGES = 100;
    /** Most envelope bytes of concurrent schedules in one call; a larger message goes alone. */
    public static final long GROUP_COMMIT_BYTES = 1 << 20;
    /** Most messages of a {@code scheduleBatch} stored by one call. */
    public static final int SCHEDULE_BATCH_MESSAGES = 1000;
    /** Most envelope bytes of a {@code scheduleBatch} stored by one call. */
    public static final long SCHEDULE_BATCH_BYTES = 1 << 20;
    /**
     * Most member bytes of a migration step ({@code legacy-claim.lua}): a batch of large RDelayedQueue values is cut
     * there rather than at {@link MigrationTask#BATCH_SIZE} messages.
     */
    public static final long MIGRATION_BATCH_BYTES = 1 << 20;

    private BatchLimits() {
    }
}
