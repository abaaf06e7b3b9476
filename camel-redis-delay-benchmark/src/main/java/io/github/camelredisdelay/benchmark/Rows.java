package io.github.camelredisdelay.benchmark;

import java.util.Map;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/** Groups of table rows that several scenarios show the same way. */
final class Rows {

    private Rows() {
    }

    /**
     * The lateness rows of P1 and P4: four percentiles and the delivered count, each against its target.
     *
     * @param suffix    appended to each scenario text, e.g. ", 1,000,000 pending"
     * @param p99Target P1 bounds the p99 absolutely, P4 relative to P1
     */
    static void lateness(Report report, String id, String suffix, Map<Side, LatenessProbe.Outcome> outcomes,
            Target p99Target) {
        report.add(ResultRow.compare(id, "lateness p50" + suffix + " (ms)", outcomes, o -> o.lateness().p50(),
                Target.none(), LatenessProbe.Outcome::details));
        report.add(ResultRow.compare(id, "lateness p90" + suffix + " (ms)", outcomes, o -> o.lateness().p90(),
                Target.none(), LatenessProbe.Outcome::details));
        report.add(ResultRow.compare(id, P1Lateness.P99 + suffix + " (ms)", outcomes, o -> o.lateness().p99(),
                p99Target, LatenessProbe.Outcome::details));
        report.add(ResultRow.compare(id, "lateness max" + suffix + " (ms)", outcomes, o -> o.lateness().max(),
                Target.oursAtMost(20, "≤ 20 ms"), LatenessProbe.Outcome::details));
        int expected = outcomes.values().stream().mapToInt(LatenessProbe.Outcome::expected).findFirst().orElse(0);
        report.add(ResultRow.compare(id, "delivered" + suffix + " (of " + expected + ")", outcomes,
                LatenessProbe.Outcome::delivered, Target.oursAtLeast(expected, "all"), LatenessProbe.Outcome::details));
    }

    /** JVM and Redis CPU per message of each side, so a throughput gap shows as client or server work. */
    static <T> void cpu(Report report, String id, String what, Map<Side, T> outcomes,
            Function<T, RedisWindow.Usage> usage, ToLongFunction<T> messages, Function<T, Map<String, Object>> details) {
        report.add(ResultRow.compare(id, "JVM CPU µs / msg, " + what, outcomes,
                o -> usage.apply(o).jvmCpuMicrosPer(messages.applyAsLong(o)), Target.none(), details));
        report.add(ResultRow.compare(id, "Redis CPU µs / msg, " + what, outcomes,
                o -> usage.apply(o).redisCpuMicrosPer(messages.applyAsLong(o)), Target.none(), details));
    }
}
