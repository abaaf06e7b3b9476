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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * The P2 procedure, also run by P4 on a queue with a backlog: schedule calls as fast as {@code threads} callers can
 * make them, each message due in an hour so nothing is delivered meanwhile.
 */
final class ScheduleRateProbe {

    static final long DELAY_MS = Duration.ofHours(1).toMillis();
    private static final Duration BOUND = Duration.ofSeconds(120);
    private static final int WARM_UP_ROUNDS = 20;

    private ScheduleRateProbe() {
    }

    /**
     * @param batch    messages per call: 1, or the batch size of {@link #measureBatches}
     * @param inFlight calls unfinished at a time, at most: the threads, or the bound of {@link #measureInFlight}
     */
    record Outcome(int threads, int batch, int inFlight, Senders.Outcome sends, RedisWindow.Usage usage)
            implements
                RateOutcome {

        @Override
        public double perSecond() {
            return sends.perSecond() * batch;
        }

        @Override
        public long messages() {
            return (long) sends.sent() * batch;
        }

        @Override
        public Map<String, Object> details() {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("threads", threads);
            details.put("batch", batch);
            details.put("inFlight", inFlight);
            details.put("messages", messages());
            details.put("failed", sends.failed());
            details.put("seconds", Numbers.round(sends.elapsedNanos() / 1e9, 3));
            details.put("perSecond", Numbers.round(perSecond(), 1));
            details.put("meanCallMicros", Numbers.round(sends.elapsedNanos() * inFlight / 1e3 / Math.max(1, sends.sent()), 1));
            details.putAll(usage.details(messages()));
            return details;
        }
    }

    static Outcome measure(Bench bench, QueueUnderTest queue, int messages, int threads) {
        int warmUp = Math.max(2000, messages / 10);
        // warm-up messages get sequence numbers after the measured ones, so none is stored twice
        SteadyJit.warmUp("schedule", WARM_UP_ROUNDS, round -> Senders.run("schedule-warm-up", warmUp, threads, 0, BOUND,
                i -> send(queue, messages + round * warmUp + i)));
        RedisWindow window = RedisWindow.open(bench.redis());
        Senders.Outcome sends = Senders.run("schedule-" + threads, messages, threads, 0, BOUND, i -> send(queue, i));
        return new Outcome(threads, 1, threads, sends, window.close());
    }

    /**
     * Asynchronous schedules from {@code threads} threads, at most {@code inFlight} of them unfinished at a time.
     */
    static Outcome measureInFlight(Bench bench, QueueUnderTest queue, int messages, int threads, int inFlight) {
        int warmUp = Math.max(2000, messages / 10);
        SteadyJit.warmUp("schedule in flight", WARM_UP_ROUNDS, round -> AsyncSenders.run("in-flight-warm-up", warmUp,
                threads, inFlight, BOUND, i -> sendAsync(queue, messages + round * warmUp + i)));
        RedisWindow window = RedisWindow.open(bench.redis());
        Senders.Outcome sends = AsyncSenders.run("schedule-in-flight", messages, threads, inFlight, BOUND,
                i -> sendAsync(queue, i));
        return new Outcome(threads, 1, inFlight, sends, window.close());
    }

    /**
     * Schedule calls of {@code batch} messages each, from one thread, by each side's batch means.
     */
    static Outcome measureBatches(Bench bench, QueueUnderTest queue, int messages, int batch) {
        int calls = Math.max(1, messages / batch);
        int warmUp = Math.max(20, calls / 10);
        SteadyJit.warmUp("schedule in batches", WARM_UP_ROUNDS, round -> Senders.run("schedule-batch-warm-up", warmUp, 1, 0,
                BOUND, i -> sendBatch(queue, calls + round * warmUp + i, batch)));
        RedisWindow window = RedisWindow.open(bench.redis());
        Senders.Outcome sends = Senders.run("schedule-batch", calls, 1, 0, BOUND, i -> sendBatch(queue, i, batch));
        return new Outcome(1, batch, 1, sends, window.close());
    }

    private static void sendBatch(QueueUnderTest queue, int call, int batch) {
        Due due = Due.in(DELAY_MS);
        List<String> bodies = new ArrayList<>(batch);
        for (int i = 0; i < batch; i++) {
            bodies.add(Payload.of(call * batch + i, due.epochMillis(), LatenessProbe.BODY_SIZE));
        }
        queue.scheduleAll(bodies, due);
    }

    private static void send(QueueUnderTest queue, int seq) {
        Due due = Due.in(DELAY_MS);
        queue.schedule(Payload.of(seq, due.epochMillis(), LatenessProbe.BODY_SIZE), due);
    }

    private static CompletionStage<?> sendAsync(QueueUnderTest queue, int seq) {
        Due due = Due.in(DELAY_MS);
        return queue.scheduleAsync(Payload.of(seq, due.epochMillis(), LatenessProbe.BODY_SIZE), due);
    }
}
