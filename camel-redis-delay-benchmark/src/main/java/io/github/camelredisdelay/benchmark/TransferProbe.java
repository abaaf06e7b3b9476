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
package io.github.camelredisdelay.benchmark;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Counts the Redis calls of the transfer alone (due set → ready stream or list): messages are stored first, due at
 * times spread like P1's (2,000 per second), with no consumer; the calls between the end of storing and the moment
 * every message is ready are the transfer's. Messages that became ready while still storing are left out of the count.
 */
final class TransferProbe {

    private static final long SEED = 7L;
    private static final int LOAD_THREADS = 4;
    /** Storing is expected to take less than this per message, so the first due time comes after it ends. */
    private static final double LEAD_MS_PER_MESSAGE = 0.2;
    private static final long MIN_LEAD_MS = 1000;

    private TransferProbe() {
    }

    /**
     * @param moved messages transferred inside the counted window
     * @param usage what Redis and the JVM did inside that window
     */
    record Outcome(int messages, long moved, RedisWindow.Usage usage) {

        double scriptsPerMessage() {
            return moved == 0 ? Double.NaN : usage.scriptsPer(moved);
        }

        double callsPerMessage() {
            return moved == 0 ? Double.NaN : usage.commandsPer(moved);
        }

        Map<String, Object> details() {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("messages", messages);
            details.put("movedInWindow", moved);
            details.putAll(usage.details(moved));
            return details;
        }
    }

    static Outcome measure(Bench bench, QueueUnderTest queue, int messages) {
        long spreadMs = (long) (messages * 1000 / LatenessProbe.RATE_PER_SECOND);
        long first = System.currentTimeMillis() + MIN_LEAD_MS + (long) (messages * LEAD_MS_PER_MESSAGE);
        SplittableRandom random = new SplittableRandom(SEED);
        long[] dueAt = new long[messages];
        for (int i = 0; i < messages; i++) {
            dueAt[i] = first + random.nextLong(spreadMs + 1);
        }
        int stored = Senders.run("transfer-load", messages, LOAD_THREADS, 0, Duration.ofSeconds(60),
                i -> queue.schedule(Payload.of(i, dueAt[i], LatenessProbe.BODY_SIZE), Due.at(dueAt[i]))).sent();
        RedisWindow window = RedisWindow.open(bench.redis());
        long readyBefore = queue.readyCount();
        long deadline = first + spreadMs + 30_000;
        long ready = readyBefore;
        while (ready < stored && System.currentTimeMillis() < deadline) {
            Bench.pause(Duration.ofMillis(20));
            ready = queue.readyCount();
        }
        RedisWindow.Usage usage = window.close();
        if (readyBefore > 0) {
            Bench.log("%d messages were due before storing ended; counted without them", readyBefore);
        }
        return new Outcome(stored, ready - readyBefore, usage);
    }
}
