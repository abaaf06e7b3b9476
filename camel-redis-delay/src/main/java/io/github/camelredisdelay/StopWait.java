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
package io.github.camelredisdelay;

import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

import org.apache.camel.CamelContext;
import org.apache.camel.ShutdownRunningTask;
import org.apache.camel.spi.ShutdownStrategy;

/**
 * How a stopping consumer waits for the work it has under way (reads, and exchanges fetched but not finished): within
 * the shutdown strategy's timeout, while the leases of what it fetched are still kept alive, so that this work is
 * settled or handed back rather than left to run out its lease. One per consumer.
 * <p>
 * The strategy's "timeout occurred" flag stays set after a shutdown that ran out of time until the next one begins, so
 * it counts for this consumer only once the strategy suspended it (its first step) or prepared it for a stop (it does
 * before it stops it, and right after its time runs out), until it starts or resumes again. A consumer stopped alone,
 * as JMX or a route policy's {@code stopConsumer} does, waits its whole timeout whatever an earlier stop of another
 * route did, also when a route policy suspended it before (as Camel's throttling policies do).
 * <p>
 * It also keeps the route's {@link ShutdownRunningTask} that the strategy gives the consumer when it stops or suspends
 * it: as with Camel's batch consumers, {@code CompleteCurrentTaskOnly} (Camel's default) ends a fetched batch after the
 * exchange under way, and {@code CompleteAllTasks} routes all of it.
 */
final class StopWait {

    private final CamelContext context;
    private final FetchFailures fetchFailures;
    private volatile boolean byShutdownStrategy;
    private volatile boolean forced;
    private volatile ShutdownRunningTask strategyTask;

    StopWait(CamelContext context, FetchFailures fetchFailures) {
        this.context = context;
        this.fetchFailures = fetchFailures;
    }

    /** The consumer started or resumed: no stop of the strategy is under way. */
    void running() {
        byShutdownStrategy = false;
        forced = false;
        strategyTask = null;
    }

    /** The shutdown strategy begins to stop or suspend the consumer, whose route completes {@code task}. */
    void strategyBegins(ShutdownRunningTask task) {
        strategyTask = task;
    }

    /**
     * Whether the rest of a fetched batch may still be routed: not once the shutdown strategy stops or suspends a
     * consumer whose route completes only the current task; a suspension by a route policy leaves it routed.
     */
    boolean routesRestOfBatch() {
        ShutdownRunningTask task = strategyTask;
        return task == null || task == ShutdownRunningTask.CompleteAllTasks;
    }

    /**
     * The consumer was suspended, as the strategy's first step of a stop does (so a consumer that the strategy stops
     * when its time is up already counts it), or by a route policy, which the strategy did not begin
     * ({@link #strategyBegins}) and whose suspension counts nothing.
     */
    void suspended() {
        if (strategyTask != null) {
            byShutdownStrategy = true;
        }
    }

    /**
     * The shutdown strategy prepared the consumer for its stop, {@code forced} once its time ran out (a wait under way
     * sees it within 10 ms).
     */
    void prepared(boolean forced) {
        byShutdownStrategy = true;
        if (forced) {
            this.forced = true;
        }
    }

    /** Whether the shutdown strategy stopping this consumer ran out of time. */
    boolean timedOut() {
        return forced || byShutdownStrategy && context.getShutdownStrategy().isTimeoutOccurred();
    }

    /**
     * Returns once {@code underWay} is 0, the shutdown strategy's time is up, or Redis cannot be reached (leases can
     * then be neither kept nor settled: waiting gains nothing).
     */
    void forWorkUnderWay(IntSupplier underWay) {
        ShutdownStrategy shutdown = context.getShutdownStrategy();
        long deadline = System.nanoTime() + shutdown.getTimeUnit().toNanos(shutdown.getTimeout());
        try {
            while (underWay.getAsInt() > 0 && !timedOut() && deadline - System.nanoTime() > 0 && !fetchFailures.isDown()) {
                TimeUnit.MILLISECONDS.sleep(10);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
