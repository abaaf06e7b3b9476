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

/**
 * The P3 procedure: a backlog of messages that are all due when the consumers start, and the time those consumers take
 * to receive every one. How the due times are laid out is the scenario's choice ({@link Layout}).
 */
final class DrainProbe {

    private static final int BODY_SIZE = LatenessProbe.BODY_SIZE;
    /** Bounds storing the backlog, and the wait for it to become due. */
    static final Duration LOAD_BOUND = Duration.ofSeconds(180);
    /** Margin after the last due time before the consumers start. */
    private static final long SETTLE_MS = 200;

    private DrainProbe() {
    }

    /** The due times of a backlog. */
    interface Layout {

        Due dueOf(int seq);

        /** When the last message is due, given when storing ended (epoch ms). */
        long allDueAt(long loadEndMillis);
    }

    /**
     * @param delivered       messages received within the bound, of {@code expected}
     * @param drainNanos      from starting the consumers to the last message (or the bound)
     * @param firstNanos      from starting the consumers to the first message (-1: none), which the drain includes
     * @param readyAtStart    messages already transferred when the consumers started
     * @param loadedBeforeDue for due instants: whether storing ended before the first was due
     * @param usage           what Redis and the JVM did while the consumers drained
     */
    record Outcome(int expected, int delivered, int duplicates, long drainNanos, long firstNanos, double loadRate,
            long readyAtStart,
            Boolean loadedBeforeDue, RedisWindow.Usage usage) implements RateOutcome {

        @Override
        public double perSecond() {
            return Numbers.perSecond(delivered, drainNanos);
        }

        @Override
        public long messages() {
            return delivered;
        }

        @Override
        public Map<String, Object> details() {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("messages", expected);
            details.put("delivered", delivered);
            details.put("complete", delivered == expected);
            details.put("duplicates", duplicates);
            details.put("seconds", Numbers.round(drainNanos / 1e9, 3));
            details.put("firstDeliveryMs", Numbers.round(firstNanos / 1e6, 1));
            details.put("perSecond", Numbers.round(perSecond(), 1));
            details.put("preloadPerSecond", Numbers.round(loadRate, 1));
            details.put("readyWhenConsumersStarted", readyAtStart);
            details.put("storedBeforeFirstDue", loadedBeforeDue);
            details.putAll(usage.details(delivered));
            return details;
        }
    }

    static Outcome measure(
            Bench bench, QueueUnderTest queue, int messages, int consumers, Layout layout,
            Duration bound) {
        Due first = layout.dueOf(0);
        double loadRate = queue.preload(messages,
                seq -> Payload.of(seq, layout.dueOf(seq).epochMillis(), BODY_SIZE), layout::dueOf, LOAD_BOUND).perSecond();
        long loadEnd = System.currentTimeMillis();
        long untilDue = Math.min(layout.allDueAt(loadEnd) + SETTLE_MS - loadEnd, LOAD_BOUND.toMillis());
        Bench.pause(Duration.ofMillis(untilDue - (System.currentTimeMillis() - loadEnd)));

        RedisWindow window = RedisWindow.open(bench.redis());
        long readyAtStart = queue.readyCount();
        Receipts receipts = new Receipts(messages);
        long start = System.nanoTime();
        queue.startConsumers(consumers, receipts);
        try {
            if (!receipts.awaitAll(bound)) {
                Bench.log("only %d of %d messages delivered within %d s", receipts.received(), messages, bound.toSeconds());
            }
            long drainNanos = System.nanoTime() - start;
            return new Outcome(
                    messages, receipts.received(), receipts.duplicates(), drainNanos, receipts.firstAfterNanos(start),
                    loadRate, readyAtStart,
                    first.absolute() ? loadEnd < first.millis() : null, window.close());
        } finally {
            queue.stopConsumers();
        }
    }
}
