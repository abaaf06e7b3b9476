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
package io.github.camelredisdelay;

import java.util.concurrent.TimeUnit;

/**
 * How long a receiver waits for one shard's read ({@link ShardReads}): {@value #FLOOR_MS} ms, or on a slow link twice
 * the longest of the shard's last {@value #WINDOW} answered reads (a read is one or two round trips), at most
 * {@value #CEILING_MS} ms and no longer than the receive's time left, unless that is under {@value #FLOOR_MS} ms. A
 * read that never answers (a paused master) adds nothing, so such a shard holds a receiver up no longer than its link
 * took before; a wait shorter than the link would give up on every read, and the receiver would never get a message of
 * that shard.
 */
final class ShardAnswerWait {

    static final long FLOOR_MS = 250;
    static final long CEILING_MS = 2000;
    static final int WINDOW = 8;

    private final long[] answeredNanos = new long[WINDOW];
    private int next;

    /** A read of the shard answered (in time or not) {@code nanos} after it was sent. */
    synchronized void answered(long nanos) {
        answeredNanos[next] = nanos;
        next = (next + 1) % WINDOW;
    }

    /** The wait for the shard's next read, in ms, of a receive with {@code leftMs} left of its timeout. */
    synchronized long millis(long leftMs) {
        long longest = 0;
        for (long nanos : answeredNanos) {
            longest = Math.max(longest, nanos);
        }
        return Math.max(FLOOR_MS, Math.min(leftMs, Math.min(CEILING_MS, 2 * TimeUnit.NANOSECONDS.toMillis(longest))));
    }
}
