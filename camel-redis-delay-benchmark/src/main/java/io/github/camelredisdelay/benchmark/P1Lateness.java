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
import java.util.Map;

/**
 * P1: how late messages arrive on an empty queue, and how many Redis calls a message costs, overall and in the transfer
 * alone.
 */
final class P1Lateness implements Scenario {

    static final String ID = "P1";
    static final String P99 = "lateness p99";
    /** The bound on the latest delivery, also P4's. */
    static final Target MAX_TARGET = Target.oursAtMost(10, "≤ 10 ms");
    private static final int MESSAGES = 10_000;
    private static final Duration BOUND = Duration.ofSeconds(60);

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String title() {
        return "lateness of messages with delays in [0.5 s, 5 s] sent at 2,000/s; Redis calls per message";
    }

    @Override
    public void run(Bench bench) {
        int messages = bench.scaled(MESSAGES, 200);
        Map<Side, LatenessProbe.Outcome> lateness = bench.onBothSides(ID, (side, queue) -> {
            LatenessProbe.Outcome outcome = LatenessProbe.measure(bench, queue, messages, BOUND, true);
            Bench.log("%s: %d/%d delivered, lateness %s", side.label(), outcome.delivered(), messages, outcome.lateness());
            return outcome;
        });
        Map<Side, TransferProbe.Outcome> transfer = bench.onBothSides(ID, (side, queue) -> {
            TransferProbe.Outcome outcome = TransferProbe.measure(bench, queue, messages);
            Bench.log("%s: transfer moved %d with %.2f script calls/msg", side.label(), outcome.moved(),
                    outcome.scriptsPerMessage());
            return outcome;
        });
        Report report = bench.report();
        Rows.lateness(report, ID, "", lateness, Target.oursAtMost(3, "≤ 3 ms"), MAX_TARGET);
        Rows.cpu(report, ID, "msg scheduled and delivered",
                String.format("sent at %,.0f/s", LatenessProbe.RATE_PER_SECOND), lateness, LatenessProbe.Outcome::usage,
                LatenessProbe.Outcome::expected, LatenessProbe.Outcome::details);
        report.add(ResultRow.compare(ID, "Redis commands / msg (all, incl. inside scripts)", lateness,
                LatenessProbe.Outcome::callsPerMessage, Target.none(), LatenessProbe.Outcome::details));
        report.add(ResultRow.compare(ID, "script calls (EVALSHA+EVAL) / msg", lateness,
                LatenessProbe.Outcome::scriptsPerMessage, Target.none(), LatenessProbe.Outcome::details));
        report.add(ResultRow.compare(ID, "transfer alone: script calls / msg", transfer,
                TransferProbe.Outcome::scriptsPerMessage, Target.oursAtMost(1.5, "≤ 1.5"), TransferProbe.Outcome::details));
        report.add(ResultRow.compare(ID, "transfer alone: Redis commands / msg (incl. inside scripts)", transfer,
                TransferProbe.Outcome::callsPerMessage, Target.none(), TransferProbe.Outcome::details));
    }
}
