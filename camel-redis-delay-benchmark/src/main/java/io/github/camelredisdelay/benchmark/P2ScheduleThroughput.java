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

import java.util.List;
import java.util.Map;

/**
 * P2: schedule calls per second on an empty queue, with 1, 4 and 16 calling threads and in batches; each side's median
 * of {@link Bench#ROUNDS}.
 */
final class P2ScheduleThroughput implements Scenario {

    static final String ID = "P2";
    static final List<Integer> THREADS = List.of(1, 4, 16);
    /** Messages per call on the batch path. */
    static final int BATCH = 100;
    static final int MESSAGES = 20_000;

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String title() {
        return "schedule throughput (ProducerTemplate vs RDelayedQueue.offer), 1, 4 and 16 threads, delay 1 h";
    }

    @Override
    public void run(Bench bench) {
        int messages = bench.scaled(MESSAGES, 500);
        for (int threads : THREADS) {
            addRows(bench.report(), ID, scenario(threads), rounds(bench, ID, messages, threads), target(threads));
        }
        Map<Side, Rounds<ScheduleRateProbe.Outcome>> batched = bench.inRounds(ID,
                ScheduleRateProbe.Outcome::perSecond, (side, queue) -> {
                    ScheduleRateProbe.Outcome outcome = ScheduleRateProbe.measureBatches(bench, queue, messages, BATCH);
                    Bench.log("%s, batches of %d: %.0f msg/s", side.label(), BATCH, outcome.perSecond());
                    return outcome;
                });
        addRows(bench.report(), ID, "schedule in batches of " + BATCH + " (ours scheduleBatch, theirs " + BATCH
                                    + " pipelined offerAsync), 1 thread (msg/s)",
                batched, Target.ratioAtLeast(1.2));
    }

    /** {@link Bench#ROUNDS} rounds of synchronous schedules from {@code threads} threads, also run by P6. */
    static Map<Side, Rounds<ScheduleRateProbe.Outcome>> rounds(Bench bench, String id, int messages, int threads) {
        return bench.inRounds(id, ScheduleRateProbe.Outcome::perSecond, (side, queue) -> {
            ScheduleRateProbe.Outcome outcome = ScheduleRateProbe.measure(bench, queue, messages, threads);
            Bench.log("%s, %d thread(s): %.0f msg/s", side.label(), threads, outcome.perSecond());
            return outcome;
        });
    }

    /** The throughput row of a schedule path and its CPU per scheduled message. */
    static void addRows(
            Report report, String id, String scenario, Map<Side, Rounds<ScheduleRateProbe.Outcome>> rounds,
            Target target) {
        Rows.throughput(report, id, scenario, rounds, target, "scheduled msg");
    }

    /** The targets: 1.2× for few callers, 1.5× where many callers share the pipe. */
    static Target target(int threads) {
        return Target.ratioAtLeast(threads >= 16 ? 1.5 : 1.2);
    }

    /** The row's text, also how P4 finds its baseline. */
    static String scenario(int threads) {
        return "schedule, " + threads + " thread" + (threads == 1 ? "" : "s") + " (msg/s)";
    }
}
