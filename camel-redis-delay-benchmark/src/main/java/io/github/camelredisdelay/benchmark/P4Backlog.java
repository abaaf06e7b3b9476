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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * P4: P2 and P1 again on a queue that holds 1,000,000 messages due far in the future. Our cost per message must not
 * depend on the backlog: throughput and lateness p99 within 10 % of P2 and P1 (the empty queue). Schedule throughput is
 * measured first, so RDelayedQueue's transfer of the lateness messages (an LREM over the whole list each) cannot slow
 * it down.
 */
final class P4Backlog implements Scenario {

    private static final String ID = "P4";
    private static final int BACKLOG = 1_000_000;
    /** P2's thread counts that P4 repeats. */
    private static final List<Integer> THREADS = List.of(1, 4);
    /** Sequence numbers of the backlog, apart from those of the measured messages. */
    private static final int BACKLOG_SEQ = 100_000_000;
    private static final int LATENESS_MESSAGES = 10_000;
    private static final int SCHEDULE_MESSAGES = 20_000;
    private static final long BACKLOG_DELAY_MS = Duration.ofDays(1).toMillis();
    private static final Duration LOAD_BOUND = Duration.ofSeconds(240);
    private static final Duration LATENESS_BOUND = Duration.ofSeconds(150);
    private static final double TOLERANCE = 0.10;

    /** What one side did on its backlog queue. */
    private record Outcome(QueueUnderTest.Load load, Map<Integer, ScheduleRateProbe.Outcome> schedules,
            LatenessProbe.Outcome lateness) {
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String title() {
        return "P2 and P1 with 1,000,000 messages pending far in the future";
    }

    @Override
    public void run(Bench bench) {
        int backlog = bench.scaled(BACKLOG, 1000);
        int latenessMessages = bench.scaled(LATENESS_MESSAGES, 200);
        int scheduleMessages = bench.scaled(SCHEDULE_MESSAGES, 500);
        Map<Side, Outcome> outcomes = bench.onBothSides(ID, (side, queue) -> {
            QueueUnderTest.Load load = queue.preload(backlog, seq -> Payload.of(BACKLOG_SEQ + seq, 0, LatenessProbe.BODY_SIZE),
                    seq -> Due.in(BACKLOG_DELAY_MS), LOAD_BOUND);
            Bench.log("%s: %d pending stored at %.0f msg/s", side.label(), load.stored(), load.perSecond());
            Map<Integer, ScheduleRateProbe.Outcome> schedules = new LinkedHashMap<>();
            for (int threads : THREADS) {
                ScheduleRateProbe.Outcome schedule = ScheduleRateProbe.measure(bench, queue, scheduleMessages, threads);
                Bench.log("%s, %d thread(s): %.0f msg/s", side.label(), threads, schedule.perSecond());
                schedules.put(threads, schedule);
            }
            LatenessProbe.Outcome lateness = LatenessProbe.measure(bench, queue, latenessMessages, LATENESS_BOUND, false);
            Bench.log("%s: %d/%d delivered, lateness %s", side.label(), lateness.delivered(), latenessMessages,
                    lateness.lateness());
            return new Outcome(load, schedules, lateness);
        });

        String suffix = String.format(", %,d pending", backlog);
        Report report = bench.report();
        report.add(ResultRow.compare(ID, "store the backlog (msg/s)", outcomes, o -> o.load().perSecond(),
                Target.none(), o -> Map.of("stored", o.load().stored())));
        for (int threads : THREADS) {
            String scenario = P2ScheduleThroughput.scenario(threads).replace(" (", suffix + " (");
            Map<Side, ScheduleRateProbe.Outcome> schedules = select(outcomes, o -> o.schedules().get(threads));
            report.add(ResultRow.compare(ID, scenario, schedules, ScheduleRateProbe.Outcome::perSecond,
                    throughputTarget(report, threads), ScheduleRateProbe.Outcome::details));
            Rows.cpu(report, ID, "scheduled msg", scenario.replace(" (msg/s)", ""), schedules,
                    ScheduleRateProbe.Outcome::usage, ScheduleRateProbe.Outcome::messages,
                    ScheduleRateProbe.Outcome::details);
        }
        Map<Side, LatenessProbe.Outcome> lateness = select(outcomes, Outcome::lateness);
        Rows.lateness(report, ID, suffix, lateness, p99Target(report), P1Lateness.MAX_TARGET);
        Rows.cpu(report, ID, "msg scheduled and delivered", "lateness" + suffix, lateness,
                LatenessProbe.Outcome::usage, LatenessProbe.Outcome::expected, LatenessProbe.Outcome::details);
    }

    private static <T> Map<Side, T> select(Map<Side, Outcome> outcomes, Function<Outcome, T> part) {
        return outcomes.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> part.apply(e.getValue())));
    }

    private static Target throughputTarget(Report report, int threads) {
        return baseline(report, P2ScheduleThroughput.ID, P2ScheduleThroughput.scenario(threads))
                .map(p2 -> Target.oursAtLeast(p2 * (1 - TOLERANCE), String.format("≥ 0.9 × P2 (%s)", Numbers.format(p2))))
                .orElseGet(() -> new Target("within 10 % of P2 (run P2 too)", Target.Kind.NONE, 0));
    }

    private static Target p99Target(Report report) {
        return baseline(report, P1Lateness.ID, P1Lateness.P99)
                .map(p1 -> Target.oursAtMost(p1 * (1 + TOLERANCE), String.format("≤ 1.1 × P1 (%s ms)", Numbers.format(p1))))
                .orElseGet(() -> new Target("within 10 % of P1 (run P1 too)", Target.Kind.NONE, 0));
    }

    private static Optional<Double> baseline(Report report, String id, String scenario) {
        return report.find(id, scenario).map(ResultRow::ours);
    }
}
