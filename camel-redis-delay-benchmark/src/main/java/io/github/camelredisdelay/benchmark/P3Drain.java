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
import java.util.List;
import java.util.Map;

/**
 * P3: consuming a backlog of 100,000 messages that are already due, in the order they were offered (small increasing
 * delays), with 1 and 4 consumers; each side's median of {@link Bench#ROUNDS} rounds.
 */
final class P3Drain implements Scenario {

    static final String ID = "P3";
    static final int MESSAGES = 100_000;
    /** Spacing of due times: 100 per ms, so the due times span 1 s of the 100,000. */
    private static final int MESSAGES_PER_MS = 100;
    private static final Duration BOUND = Duration.ofSeconds(150);

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String title() {
        return "drain 100,000 already-due messages (due in offer order), 1 and 4 consumers";
    }

    @Override
    public void run(Bench bench) {
        int messages = bench.scaled(MESSAGES, 1000);
        for (int consumers : List.of(1, 4)) {
            addRows(bench.report(), ID, scenario(messages, consumers), rounds(bench, ID, messages, consumers),
                    Target.ratioAtLeast(consumers == 1 ? 2 : 2.5));
        }
    }

    /** {@link Bench#ROUNDS} rounds of draining {@code messages} with {@code consumers}, also run by P6. */
    static Map<Side, Rounds<DrainProbe.Outcome>> rounds(Bench bench, String id, int messages, int consumers) {
        return bench.inRounds(id, DrainProbe.Outcome::perSecond, (side, queue) -> {
            DrainProbe.Outcome outcome = DrainProbe.measure(bench, queue, messages, consumers, inOfferOrder(messages),
                    BOUND);
            Bench.log("%s, %d consumer(s): %d in %.1f s = %.0f msg/s (first after %.0f ms)", side.label(), consumers,
                    outcome.delivered(), outcome.drainNanos() / 1e9, outcome.perSecond(), outcome.firstNanos() / 1e6);
            return outcome;
        });
    }

    /** The throughput row of a drain and its CPU per delivered message. */
    static void addRows(
            Report report, String id, String scenario, Map<Side, Rounds<DrainProbe.Outcome>> rounds,
            Target target) {
        Rows.throughput(report, id, scenario, rounds, target, "delivered msg");
    }

    static String scenario(int messages, int consumers) {
        return String.format("drain %,d due in offer order, %d consumer%s (msg/s)", messages, consumers,
                consumers == 1 ? "" : "s");
    }

    private static DrainProbe.Layout inOfferOrder(int messages) {
        return new DrainProbe.Layout() {
            @Override
            public Due dueOf(int seq) {
                return Due.in(seq / MESSAGES_PER_MS);
            }

            @Override
            public long allDueAt(long loadEndMillis) {
                return loadEndMillis + messages / MESSAGES_PER_MS;
            }
        };
    }
}
