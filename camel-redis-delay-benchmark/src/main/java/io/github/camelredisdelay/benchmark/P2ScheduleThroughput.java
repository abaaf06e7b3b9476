package io.github.camelredisdelay.benchmark;

import java.util.List;
import java.util.Map;

/** P2: schedule calls per second on an empty queue, with 1 and 4 calling threads; each side's median of {@link Bench#ROUNDS}. */
final class P2ScheduleThroughput implements Scenario {

    static final String ID = "P2";
    static final List<Integer> THREADS = List.of(1, 4);
    /** Messages per call on the batch path. */
    static final int BATCH = 100;
    private static final int MESSAGES = 20_000;

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String title() {
        return "schedule throughput (ProducerTemplate vs RDelayedQueue.offer), 1 and 4 threads, delay 1 h";
    }

    @Override
    public void run(Bench bench) {
        int messages = bench.scaled(MESSAGES, 500);
        for (int threads : THREADS) {
            Map<Side, Rounds<ScheduleRateProbe.Outcome>> rounds = bench.inRounds(ID,
                    ScheduleRateProbe.Outcome::perSecond, (side, queue) -> {
                        ScheduleRateProbe.Outcome outcome = ScheduleRateProbe.measure(bench, queue, messages, threads);
                        Bench.log("%s, %d thread(s): %.0f msg/s", side.label(), threads, outcome.perSecond());
                        return outcome;
                    });
            bench.report().add(ResultRow.compareMedians(ID, scenario(threads), rounds, ScheduleRateProbe.Outcome::perSecond,
                    Target.ratioAtLeast(1.2), ScheduleRateProbe.Outcome::details));
            if (threads == 1) {
                Rows.cpu(bench.report(), ID, "schedule, 1 thread", Rounds.medians(rounds), ScheduleRateProbe.Outcome::usage,
                        o -> o.sends().sent(), ScheduleRateProbe.Outcome::details);
            }
        }
        Map<Side, Rounds<ScheduleRateProbe.Outcome>> batched = bench.inRounds(ID,
                ScheduleRateProbe.Outcome::perSecond, (side, queue) -> {
                    ScheduleRateProbe.Outcome outcome = ScheduleRateProbe.measureBatches(bench, queue, messages, BATCH);
                    Bench.log("%s, batches of %d: %.0f msg/s", side.label(), BATCH, outcome.perSecond());
                    return outcome;
                });
        bench.report().add(ResultRow.compareMedians(ID, "schedule in batches of " + BATCH + " (ours scheduleBatch, theirs "
                                                 + BATCH + " pipelined offerAsync), 1 thread (msg/s)",
                batched, ScheduleRateProbe.Outcome::perSecond, Target.ratioAtLeast(1.2), ScheduleRateProbe.Outcome::details));
    }

    /** The row's text, also how P4 finds its baseline. */
    static String scenario(int threads) {
        return "schedule, " + threads + " thread" + (threads == 1 ? "" : "s") + " (msg/s)";
    }
}
