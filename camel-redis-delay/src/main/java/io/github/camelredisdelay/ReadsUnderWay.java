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

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The reads of a blocking consumer's reader threads that Redis has not answered yet, one per thread at most, and since
 * when: a stop waits for them to bring their batches, but not for one that has waited longer than Redis takes to answer
 * a read ({@value #UNANSWERED_AFTER_MS} ms: the longest block in Redis, 250 ms, and Redisson's default response timeout
 * of 3 s, with room). Redis is then silent (a paused server, a black-holed address, a client still making its first
 * connection), and waiting for it gains nothing.
 */
final class ReadsUnderWay {

    static final long UNANSWERED_AFTER_MS = 5000;

    private final Map<Thread, Long> startedAt = new ConcurrentHashMap<>();

    /** The calling reader thread begins a read. */
    void begin() {
        startedAt.put(Thread.currentThread(), System.nanoTime());
    }

    /** The calling reader thread's read ended: answered, failed or given up. */
    void end() {
        startedAt.remove(Thread.currentThread());
    }

    /** The reads under way that have not yet waited longer than Redis takes to answer one. */
    int awaited() {
        long now = System.nanoTime();
        return (int) startedAt.values().stream().filter(started -> !unanswered(now, started)).count();
    }

    /** Whether a read under way has waited longer than Redis takes to answer one. */
    boolean unanswered() {
        long now = System.nanoTime();
        return startedAt.values().stream().anyMatch(started -> unanswered(now, started));
    }

    private static boolean unanswered(long now, long started) {
        return now - started > TimeUnit.MILLISECONDS.toNanos(UNANSWERED_AFTER_MS);
    }
}
