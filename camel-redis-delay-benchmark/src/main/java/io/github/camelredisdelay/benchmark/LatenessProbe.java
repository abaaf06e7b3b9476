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
 * The P1 procedure, also run by P4 on a queue with a backlog: messages with delays uniform in [0.5 s, 5 s] sent at a
 * fixed rate, one consumer, lateness = receive time − intended due time. The Redis commands and CPU of the whole run
 * are counted too.
 */
final class LatenessProbe {

    static final double RATE_PER_SECOND = 2000;
    static final int MIN_DELAY_MS = 500;
    static final int MAX_DELAY_MS = 5000;
    static final int BODY_SIZE = 64;
    /** Several paced senders, so one slow round trip does not hold the pace back. */
    private static final int SENDERS = 4;
    private static final int CONSUMERS = 1;
    private static final long SEED = 20_260_807L;
    /** Most warm-up rounds before measuring, until the JIT is quiet ({@link SteadyJit}). */
    private static final int WARM_UP_ROUNDS = 12;

    private LatenessProbe() {
    }

    /**
     * @param delivered            messages received at least once, of {@code expected}
     * @param sendRate             achieved send rate, messages/s
     * @param usage                what Redis and the JVM did from the first send to the last delivery
     * @param sortedLatenessMicros each delivered message's lateness, lowest first, for the chart
     */
    record Outcome(int expected, int delivered, int duplicates, Percentiles lateness, double sendRate,
            RedisWindow.Usage usage, long[] sortedLatenessMicros) {

        double callsPerMessage() {
            return usage.commandsPer(expected);
        }

        double scriptsPerMessage() {
            return usage.scriptsPer(expected);
        }

        Map<String, Object> details() {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("messages", expected);
            details.put("delivered", delivered);
            details.put("duplicates", duplicates);
            details.put("lateness", lateness.toMap());
            details.put("sendRatePerSecond", Numbers.round(sendRate, 1));
            details.putAll(usage.details(expected));
            return details;
        }
    }

    /**
     * @param warmUp whether to push messages through first, in rounds until the JIT compilers are idle: connections,
     *               the consumer path of a fresh queue and the code the other side's run got recompiled; P4's queue has
     *               just been used
     */
    static Outcome measure(Bench bench, QueueUnderTest queue, int messages, Duration bound, boolean warmUp) {
        long[] delays = delays(messages);
        if (warmUp) {
            int warmUpMessages = Math.max(50, Math.min(1000, messages / 10));
            SteadyJit.warmUp("lateness", WARM_UP_ROUNDS, round -> warmUp(queue, warmUpMessages));
        }
        Receipts receipts = new Receipts(messages);
        queue.startConsumers(CONSUMERS, receipts);
        try {
            RedisWindow window = RedisWindow.open(bench.redis());
            long deadline = System.nanoTime() + bound.toNanos();
            Senders.Outcome sent = Senders.run("lateness", messages, SENDERS, RATE_PER_SECOND, bound, i -> {
                Due due = Due.in(delays[i]);
                queue.schedule(Payload.of(i, due.epochMillis(), BODY_SIZE), due);
            });
            boolean complete = receipts.awaitAll(Duration.ofNanos(deadline - System.nanoTime()));
            RedisWindow.Usage usage = window.close();
            if (!complete) {
                Bench.log("only %d of %d messages delivered within %d s", receipts.received(), messages, bound.toSeconds());
            }
            long[] lateness = receipts.sortedLatenessMicros();
            return new Outcome(
                    messages, receipts.received(), receipts.duplicates(), Percentiles.ofMicros(lateness),
                    sent.perSecond(), usage, lateness);
        } finally {
            queue.stopConsumers();
        }
    }

    /** Connections, JIT and the consumer path exercised once, through a consumer of its own. */
    private static void warmUp(QueueUnderTest queue, int messages) {
        Receipts receipts = new Receipts(messages);
        queue.startConsumers(CONSUMERS, receipts);
        try {
            Senders.run("warm-up", messages, SENDERS, RATE_PER_SECOND, Duration.ofSeconds(30), i -> {
                Due due = Due.in(50 + i % 100);
                queue.schedule(Payload.of(i, due.epochMillis(), BODY_SIZE), due);
            });
            if (!receipts.awaitAll(Duration.ofSeconds(30))) {
                Bench.log("warm-up: only %d of %d delivered", receipts.received(), messages);
            }
        } finally {
            queue.stopConsumers();
        }
    }

    /** The same delays for both sides. */
    private static long[] delays(int messages) {
        SplittableRandom random = new SplittableRandom(SEED);
        long[] delays = new long[messages];
        for (int i = 0; i < messages; i++) {
            delays[i] = random.nextLong(MIN_DELAY_MS, MAX_DELAY_MS + 1);
        }
        return delays;
    }
}
