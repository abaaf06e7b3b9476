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

import java.util.Map;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/** Groups of table rows that several scenarios show the same way. */
final class Rows {

    private Rows() {
    }

    /**
     * The lateness rows of P1 and P4: four percentiles and the delivered count, each against its target; the
     * distributions go to the lateness chart.
     *
     * @param suffix    appended to each scenario text, e.g. ", 1,000,000 pending"
     * @param p99Target P1 bounds the p99 absolutely, P4 relative to P1
     */
    static void lateness(
            Report report, String id, String suffix, Map<Side, LatenessProbe.Outcome> outcomes,
            Target p99Target, Target maxTarget) {
        report.add(ResultRow.compare(id, "lateness p50" + suffix + " (ms)", outcomes, o -> o.lateness().p50(),
                Target.none(), LatenessProbe.Outcome::details));
        report.add(ResultRow.compare(id, "lateness p90" + suffix + " (ms)", outcomes, o -> o.lateness().p90(),
                Target.none(), LatenessProbe.Outcome::details));
        report.add(ResultRow.compare(id, P1Lateness.P99 + suffix + " (ms)", outcomes, o -> o.lateness().p99(),
                p99Target, LatenessProbe.Outcome::details));
        report.add(ResultRow.compare(id, "lateness max" + suffix + " (ms)", outcomes, o -> o.lateness().max(),
                maxTarget, LatenessProbe.Outcome::details));
        outcomes.forEach((side, outcome) -> report.addCurve(new LatenessCdfChart.Curve(
                id + suffix, side,
                outcome.sortedLatenessMicros(), outcome.expected())));
        int expected = outcomes.values().stream().mapToInt(LatenessProbe.Outcome::expected).findFirst().orElse(0);
        report.add(ResultRow.compare(id, "delivered" + suffix + " (of " + expected + ")", outcomes,
                LatenessProbe.Outcome::delivered, Target.oursAtLeast(expected, "all"), LatenessProbe.Outcome::details));
    }

    /**
     * JVM + Redis CPU per message of each side, against the issue's ≤ 0.7×; the JVM / Redis split is in the details
     * ({@code jvmCpuMicrosPerMessage}, {@code redisCpuMicrosPerMessage}).
     *
     * @param per     what a message is counted as, e.g. "scheduled msg"
     * @param context the path, e.g. "schedule, 1 thread"
     */
    static <T> void cpu(
            Report report, String id, String per, String context, Map<Side, T> outcomes,
            Function<T, RedisWindow.Usage> usage, ToLongFunction<T> messages, Function<T, Map<String, Object>> details) {
        report.add(ResultRow.compare(id, "CPU µs / " + per + " (JVM + Redis), " + context, outcomes,
                o -> usage.apply(o).cpuMicrosPer(messages.applyAsLong(o)), Target.ratioAtMost(0.7), details));
    }

    /**
     * A throughput row, each side's median of its rounds, and the CPU per message of that median.
     *
     * @param per what a message is counted as, e.g. "scheduled msg"
     */
    static <T extends RateOutcome> void throughput(
            Report report, String id, String scenario,
            Map<Side, Rounds<T>> rounds, Target target, String per) {
        report.add(ResultRow.compareMedians(id, scenario, rounds, RateOutcome::perSecond, target, RateOutcome::details));
        cpu(report, id, per, scenario.replace(" (msg/s)", ""), Rounds.medians(rounds), RateOutcome::usage,
                RateOutcome::messages, RateOutcome::details);
    }
}
