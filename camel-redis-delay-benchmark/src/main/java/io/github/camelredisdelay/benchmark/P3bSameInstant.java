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
 * P3b: the same drain when all 100,000 messages are due at one instant. RDelayedQueue's transfer then removes each
 * message from its list with an LREM at a random position (its sorted set orders equal due times by a random id), which
 * is quadratic; each side's wait is bounded and what it delivered within the bound is reported.
 */
final class P3bSameInstant implements Scenario {

    private static final int MESSAGES = 100_000;
    private static final int CONSUMERS = 4;
    private static final Duration BOUND = Duration.ofSeconds(150);
    /** Storing may take this much longer than the calibration predicts before the instant passes. */
    private static final double LOAD_MARGIN = 1.5;
    private static final long MIN_LEAD_MS = 1000;
    private static final int CALIBRATION_MESSAGES = 5000;

    @Override
    public String id() {
        return "P3b";
    }

    @Override
    public String title() {
        return "drain 100,000 messages all due at the same instant, 4 consumers";
    }

    @Override
    public void run(Bench bench) {
        int messages = bench.scaled(MESSAGES, 1000);
        Map<Side, Double> loadRates = bench.onBothSides(id(), (side, queue) -> queue.preload(
                Math.min(messages, CALIBRATION_MESSAGES), seq -> Payload.of(seq, 0, LatenessProbe.BODY_SIZE),
                seq -> Due.in(ScheduleRateProbe.DELAY_MS), Duration.ofSeconds(60)).perSecond());
        Map<Side, DrainProbe.Outcome> outcomes = bench.onBothSides(id(), (side, queue) -> {
            DrainProbe.Outcome outcome = DrainProbe.measure(bench, queue, messages, CONSUMERS,
                    oneInstant(messages, loadRates.getOrDefault(side, 1000.0)), BOUND);
            Bench.log("%s: %d in %.1f s = %.0f msg/s", side.label(), outcome.delivered(), outcome.drainNanos() / 1e9,
                    outcome.perSecond());
            return outcome;
        });
        bench.report().add(ResultRow.compare(id(), String.format("drain %,d due at one instant, %d consumers (msg/s)",
                messages, CONSUMERS), outcomes, DrainProbe.Outcome::perSecond, Target.ratioAtLeast(20),
                DrainProbe.Outcome::details));
        bench.report().add(ResultRow.compare(id(), "delivered within " + BOUND.toSeconds() + " s (of "
                                                   + messages + ")",
                outcomes, DrainProbe.Outcome::delivered, Target.oursAtLeast(messages, "all"),
                DrainProbe.Outcome::details));
        Rows.cpu(bench.report(), id(), "delivered msg", "drain at one instant", outcomes, DrainProbe.Outcome::usage,
                DrainProbe.Outcome::delivered, DrainProbe.Outcome::details);
    }

    /** One instant late enough for storing, at the calibrated rate, to end before it. */
    private static DrainProbe.Layout oneInstant(int messages, double loadRate) {
        long lead = MIN_LEAD_MS + (long) (LOAD_MARGIN * messages * 1000 / Math.max(1, loadRate));
        long instant = System.currentTimeMillis() + Math.min(lead, DrainProbe.LOAD_BOUND.toMillis());
        return new DrainProbe.Layout() {
            @Override
            public Due dueOf(int seq) {
                return Due.at(instant);
            }

            @Override
            public long allDueAt(long loadEndMillis) {
                return Math.max(instant, loadEndMillis);
            }
        };
    }
}
