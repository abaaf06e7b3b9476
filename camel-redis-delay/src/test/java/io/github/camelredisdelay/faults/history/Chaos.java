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
package io.github.camelredisdelay.faults.history;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.apache.camel.CamelContext;

/**
 * What disturbs the consumers during a round, paced by the round's seed: one node's consumer route is stopped and
 * started, or suspended and resumed, every 1-3.5 s for up to 0.8 s ({@link RouteStops}); the dead-letter queue's
 * consumer route for 1-4 s after every 0.5-2 s while the {@link Redriver} redrives, so that dead letters wait there for
 * it; and, when the round has a consumer JVM, that is killed once.
 */
public final class Chaos {

    /** The pace of the stops of the consumer route. */
    private static final RouteStops.Pace CONSUMER_STOPS = new RouteStops.Pace(1000, 2500, 0, 800);
    /** The pace of the stops of the dead-letter queue's consumer route: down most of the run. */
    private static final RouteStops.Pace DEAD_LETTER_STOPS = new RouteStops.Pace(500, 1500, 1000, 3000);

    private final RouteStops consumerStops;
    private final RouteStops deadLetterStops;
    private final List<String> errors = new CopyOnWriteArrayList<>();
    private Thread killer;

    Chaos(long seed, FaultWindows faults) {
        this.consumerStops = new RouteStops(
                new Random(new SplittableRandom(seed * 31 - 1).nextLong()), faults,
                CONSUMER_STOPS);
        this.deadLetterStops = new RouteStops(
                new Random(new SplittableRandom(seed * 31 - 4).nextLong()), faults,
                DEAD_LETTER_STOPS);
    }

    /**
     * Starts disturbing the consumers until {@code untilMillis}.
     *
     * @param node        the node whose consumer route is stopped and suspended
     * @param killAfterMs when the kill comes, from now
     * @param kill        the kill, or {@code null} when the round has no consumer JVM
     */
    void start(CamelContext node, String routeId, long untilMillis, long killAfterMs, Runnable kill) {
        consumerStops.start(node.getRouteController(), routeId, () -> System.currentTimeMillis() < untilMillis);
        if (kill != null) {
            killer = new Thread(() -> {
                if (pause(killAfterMs)) {
                    try {
                        kill.run();
                    } catch (RuntimeException | AssertionError e) {
                        errors.add("the kill of the consumer JVM failed: " + e);
                    }
                }
            }, "history-chaos-kill");
            killer.start();
        }
    }

    /**
     * Starts stopping the dead-letter queue's consumer route of {@code node} for stretches while {@code during} holds.
     */
    void stopDeadLetters(CamelContext node, String routeId, BooleanSupplier during) {
        deadLetterStops.start(node.getRouteController(), routeId, during);
    }

    /** Waits until the disturbances are over; the errors they met. */
    List<String> join() throws InterruptedException {
        List<String> met = new ArrayList<>(consumerStops.join());
        met.addAll(deadLetterStops.join());
        if (killer != null) {
            killer.join();
        }
        met.addAll(errors);
        return met;
    }

    /** The chaos' own pacing, part of the workload; false when interrupted. */
    static boolean pause(long millis) {
        try {
            TimeUnit.MILLISECONDS.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
