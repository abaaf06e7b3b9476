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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

import org.apache.camel.ServiceStatus;
import org.apache.camel.spi.RouteController;
import org.awaitility.core.ConditionTimeoutException;

import static org.awaitility.Awaitility.await;

/**
 * Stops and starts, or suspends and resumes, one route now and then during a round, as its {@link Pace} says, drawn
 * from a random of the round's seed, and leaves it running when it is done. Errors of the route controller are
 * collected, for the round to report, but for those near a fault of Redis itself ({@link FaultWindows}): a route cannot
 * always start while Redis is down, so it is run again once Redis lets it.
 */
final class RouteStops {

    /** How long the route runs between stops and how long a stop lasts: the least, and how much more at most. */
    record Pace(int minUpMillis, int moreUpMillis, int minDownMillis, int moreDownMillis) {
    }

    private static final int MAX_RESTARTS = 1000;
    private static final Duration RUN_AGAIN_TIMEOUT = Duration.ofSeconds(30);

    private final Random random;
    private final FaultWindows faults;
    private final Pace pace;
    private final List<String> errors = new CopyOnWriteArrayList<>();
    private Thread thread;

    RouteStops(Random random, FaultWindows faults, Pace pace) {
        this.random = random;
        this.faults = faults;
        this.pace = pace;
    }

    /** Starts stopping the route while {@code during} holds. */
    void start(RouteController routes, String routeId, BooleanSupplier during) {
        thread = new Thread(() -> restart(routes, routeId, during), "history-stops-" + routeId);
        thread.start();
    }

    /** Waits until the route runs for good; the errors met. */
    List<String> join() throws InterruptedException {
        thread.join();
        return errors;
    }

    private void restart(RouteController routes, String routeId, BooleanSupplier during) {
        for (int n = 0; n < MAX_RESTARTS && during.getAsBoolean(); n++) {
            boolean stop = random.nextBoolean();
            if (!Chaos.pause(pace.minUpMillis() + random.nextInt(pace.moreUpMillis())) || !during.getAsBoolean()) {
                return;
            }
            long start = System.currentTimeMillis();
            try {
                if (stop) {
                    routes.stopRoute(routeId);
                } else {
                    routes.suspendRoute(routeId);
                }
                boolean uninterrupted = Chaos.pause(pace.minDownMillis() + random.nextInt(pace.moreDownMillis()));
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
}
