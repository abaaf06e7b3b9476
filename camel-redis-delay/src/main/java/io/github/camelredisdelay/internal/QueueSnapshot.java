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
 * The counts of a queue and of its dead-letter queue, as read together by one refresh of {@link QueueStatistics}.
 *
 * @param counts          the queue's messages by state (every shard added up)
 * @param deadLetterQueue the dead-letter queue counted
 * @param deadLettered    messages in that dead-letter queue
 * @param takenAtNanos    when the reply arrived, {@link System#nanoTime()}
 */
public record QueueSnapshot(QueueCounts counts, String deadLetterQueue, long deadLettered, long takenAtNanos) {

    /** Whether this snapshot is at most {@code maxAgeMs} old. */
    boolean youngerThan(long maxAgeMs, long nowNanos) {
        return nowNanos - takenAtNanos < maxAgeMs * 1_000_000L;
    }
}
