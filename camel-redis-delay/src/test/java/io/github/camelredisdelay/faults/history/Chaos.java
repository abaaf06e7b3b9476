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

import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.apache.camel.CamelContext;
import org.apache.camel.ServiceStatus;
import org.apache.camel.spi.RouteController;
import org.awaitility.core.ConditionTimeoutException;

import static org.awaitility.Awaitility.await;

/**
 * What disturbs the consumers during a round, paced by the round's seed: one node's consumer route is stopped and
 * started, or suspended and resumed, every 1-3.5 s for up to 0.8 s; and, when the round has a consumer JVM, that is
 * killed once. Errors of the route controller are collected, for the round to report, but for those near a fault of
 * Redis itself ({@link FaultWindows}): a route cannot always start while Redis is down.
 */
public final class Chaos {

    private static final int MIN_PAUSE_MILLIS = 1000;
    private static final int MORE_PAUSE_MILLIS = 2500;
    private static final int MAX_DOWN_MILLIS = 800;
    private static final int MAX_RESTARTS = 1000;
    private static final Duration RUN_AGAIN_TIMEOUT = Duration.ofSeconds(30);

    private final Random random;
    private final FaultWindows faults;
    private final List<String> errors = new CopyOnWriteArrayList<>();
    private Thread restarter;
    private Thread killer;

    Chaos(long seed, FaultWindows faults) {
        this.random = new Random(new SplittableRandom(seed * 31 - 1).nextLong());
        this.faults = faults;
    }

    /**
     * Starts disturbing until {@code untilMillis}.
     *
     * @param node        the node whose consumer route is stopped and suspended
     * @param killAfterMs when the kill comes, from now
     * @param kill        the kill, or {@code null} when the round has no consumer JVM
     */
    void start(CamelContext node, String routeId, long untilMillis, long killAfterMs, Runnable kill) {
        restarter = new Thread(() -> restart(node.getRouteController(), routeId, untilMillis), "history-chaos-route");
        restarter.start();
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

    /** Waits until the disturbances are over; the errors they met. */
    List<String> join() throws InterruptedException {
        restarter.join();
        if (killer != null) {
            killer.join();
        }
        return errors;
    }

    private void restart(RouteController routes, String routeId, long untilMillis) {
        for (int n = 0; n < MAX_RESTARTS && System.currentTimeMillis() < untilMillis; n++) {
            boolean stop = random.nextBoolean();
            if (!pause(MIN_PAUSE_MILLIS + random.nextInt(MORE_PAUSE_MILLIS))) {
                return;
            }
            long start = System.currentTimeMillis();
            try {
                if (stop) {
                    routes.stopRoute(routeId);
                } else {
                    routes.suspendRoute(routeId);
                }
                boolean uninterrupted = pause(random.nextInt(MAX_DOWN_MILLIS));
                if (stop) {
                    routes.startRoute(routeId);
                } else {
                    routes.resumeRoute(routeId);
                }
                if (!uninterrupted) {
                    return;
                }
            } catch (Exception e) {
                if (faults.overlaps(start, System.currentTimeMillis(), FaultWindows.AFTERMATH_MS)) {
                    System.out.println("[history] route " + routeId + " not restarted near a Redis fault: " + e);
                    runAgain(routes, routeId);
                    continue;
                }
                errors.add("route " + routeId + " could not be " + (stop ? "stopped or started" : "suspended or resumed")
                           + ": " + e);
            }
        }
    }

    /** Starts or resumes the route once Redis lets it, at most {@link #RUN_AGAIN_TIMEOUT} later. */
    private void runAgain(RouteController routes, String routeId) {
        try {
            await("route " + routeId + " running again").atMost(RUN_AGAIN_TIMEOUT).pollInterval(Duration.ofMillis(500))
                    .ignoreExceptions().until(() -> {
                        ServiceStatus status = routes.getRouteStatus(routeId);
                        if (status.isSuspended()) {
                            routes.resumeRoute(routeId);
                        } else if (!status.isStarted()) {
                            routes.startRoute(routeId);
                        }
                        return routes.getRouteStatus(routeId).isStarted();
                    });
        } catch (ConditionTimeoutException e) {
            errors.add("route " + routeId + " did not run again within " + RUN_AGAIN_TIMEOUT + " of a Redis fault");
        }
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
