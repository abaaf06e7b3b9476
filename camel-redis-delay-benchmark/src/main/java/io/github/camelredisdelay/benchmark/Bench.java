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
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import org.apache.camel.CamelContext;
import org.redisson.api.RedissonClient;

/**
 * What every scenario works with: the settings, the Redis server, the one CamelContext (our side), the one Redisson
 * client (their side) and the report.
 */
final class Bench {

    /**
     * Rounds of the throughput comparisons (P2, P3), whose table rows show each side's median. Rates on this kind of
     * shared machine swing by 10-40 % from one minute to the next; the median of alternating rounds is steadier than a
     * single pair.
     */
    static final int ROUNDS = 3;

    private final BenchSettings settings;
    private final BenchRedis redis;
    private final BenchClients clients;
    private final Report report;
    private int runs;
    private boolean oursFirst = true;

    Bench(BenchSettings settings, BenchRedis redis, BenchClients clients, Report report) {
        this.settings = settings;
        this.redis = redis;
        this.clients = clients;
        this.report = report;
    }

    /** The same benchmark with other clients, e.g. ones that reach Redis through a proxy. */
    Bench with(BenchClients other) {
        return new Bench(settings, redis, other, report);
    }

    BenchSettings settings() {
        return settings;
    }

    BenchRedis redis() {
        return redis;
    }

    CamelContext camel() {
        return clients.camel();
    }

    RedissonClient redisson() {
        return clients.redisson();
    }

    Report report() {
        return report;
    }

    /** {@link BenchSettings#scaled} */
    int scaled(int fullCount, int min) {
        return settings.scaled(fullCount, min);
    }

    /**
     * Both sides; which one goes first alternates from call to call, so a drift of the machine (other load, a warming
     * JIT, a growing heap) does not always favour the same side.
     */
    List<Side> sidesInTurn() {
        List<Side> order = oursFirst ? List.of(Side.OURS, Side.THEIRS) : List.of(Side.THEIRS, Side.OURS);
        oursFirst = !oursFirst;
        return order;
    }

    /** Work done on one side's freshly opened queue. */
    @FunctionalInterface
    interface SideRun<T> {
        T run(Side side, QueueUnderTest queue);
    }

    /**
     * Runs {@code run} for both sides, each on a new queue, in {@linkplain #sidesInTurn() alternating order}. A side
     * that fails is reported and left out, so the other side's results still reach the table.
     */
    <T> Map<Side, T> onBothSides(String scenarioId, SideRun<T> run) {
        Map<Side, T> outcomes = new EnumMap<>(Side.class);
        for (Side side : sidesInTurn()) {
            try (QueueUnderTest queue = open(side, scenarioId)) {
                outcomes.put(side, run.run(side, queue));
            } catch (RuntimeException e) {
                log("%s failed on %s: %s", scenarioId, side.label(), e);
                report.failed(scenarioId + " (" + side.label() + ")", e);
            }
        }
        return outcomes;
    }

    /**
     * {@link #onBothSides} {@link #ROUNDS} times, so each side runs in turn first and second; per side the outcomes
     * ordered by {@code metric}. A side that failed in a round has fewer outcomes, one that failed in all has none.
     */
    <T> Map<Side, Rounds<T>> inRounds(String scenarioId, ToDoubleFunction<T> metric, SideRun<T> run) {
        Map<Side, List<T>> outcomes = new EnumMap<>(Side.class);
        for (int round = 0; round < ROUNDS; round++) {
            onBothSides(scenarioId, run)
                    .forEach((side, outcome) -> outcomes.computeIfAbsent(side, any -> new ArrayList<>()).add(outcome));
        }
        Map<Side, Rounds<T>> ordered = new EnumMap<>(Side.class);
        outcomes.forEach((side, sideOutcomes) -> ordered.put(side, Rounds.of(sideOutcomes, metric)));
        return ordered;
    }

    /** Empties Redis (FLUSHALL) and opens a new queue with a name, and for ours a key prefix, of its own. */
    private QueueUnderTest open(Side side, String scenarioId) {
        redis.reset();
        String run = scenarioId.toLowerCase(Locale.ROOT) + "-" + side.name().toLowerCase(Locale.ROOT) + "-" + ++runs;
        return side.open(this, run);
    }

    static void log(String format, Object... args) {
        System.out.printf("  " + format + "%n", args);
    }

    static void pause(Duration duration) {
        try {
            Thread.sleep(Math.max(0, duration.toMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted", e);
        }
    }
}
