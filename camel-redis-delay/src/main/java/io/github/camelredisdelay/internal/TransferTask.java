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
package io.github.camelredisdelay.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves a queue's due messages to its ready stream. It runs at start, then sleeps exactly until the next due time that
 * Redis reports (a relative delay, so client clocks never matter), wakes early when a schedule announces a new earliest
 * message on the queue's wake channel ({@link WakeChannels}), runs on every (re)subscription to it, and at least every
 * {@code interval} as a safety net against a lost announcement. While Redis is unreachable it backs off.
 * <p>
 * The Redis calls are asynchronous; the timer thread only arms timers, so one thread serves many queues.
 */
public final class TransferTask implements SharedService {

    private static final Logger LOG = LoggerFactory.getLogger(TransferTask.class);

    private final QueueShard queue;
    private final ScheduledExecutorService timer;
    private final int batchSize;
    private final long intervalMicros;
    private final OutageLog outage;
    private final Backoff backoff;

    private final WakeChannels wake;
    private final Runnable onSubscribed;
    private final WakeListener wakeListener = new WakeListener() {
        @Override
        public void earliestDueIn(long delayMs) {
            armIn(TimeUnit.MILLISECONDS.toMicros(delayMs));
        }

        @Override
        public void subscribed() {
            // (re)subscribed, possibly after a reconnect: announcements may have been missed meanwhile
            armIn(0);
            onSubscribed.run();
        }
    };

    private volatile boolean running;

    // guarded by this
    private ScheduledFuture<?> armed;
    private long armedAtNanos;
    private boolean stepInFlight;
    private boolean runAgain;

    /**
     * @param wake         the wake channels of the queue's client and key prefix, started by the caller
     * @param onSubscribed runs on every (re)subscription of the wake channels, after a reconnect too
     */
    public TransferTask(QueueShard queue, WakeChannels wake, ScheduledExecutorService timer, int batchSize, long intervalMs,
                        Runnable onSubscribed) {
        this.queue = queue;
        this.wake = wake;
        this.onSubscribed = onSubscribed;
        this.timer = timer;
        this.batchSize = batchSize;
        this.intervalMicros = TimeUnit.MILLISECONDS.toMicros(intervalMs);
        this.outage = new OutageLog(LOG, "Transfer task of queue " + queue.name());
        this.backoff = new Backoff(Math.min(50, intervalMs), Math.min(intervalMs, 1000));
    }

    public int batchSize() {
        return batchSize;
    }

    public long intervalMs() {
        return TimeUnit.MICROSECONDS.toMillis(intervalMicros);
    }

    @Override
    public void start() {
        running = true;
        wake.listen(queue.keys().wake(), wakeListener);
        armIn(0);
    }

    @Override
    public void stop() {
        running = false;
        wake.stopListening(queue.keys().wake(), wakeListener);
        synchronized (this) {
            if (armed != null) {
                armed.cancel(false);
                armed = null;
            }
        }
    }

    private CompletionStage<TransferResult> transferStep() {
        try {
            return queue.transfer(batchSize);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Makes sure a step runs within {@code delayMicros}; keeps an earlier timer that is already armed.
     */
    private synchronized void armIn(long delayMicros) {
        if (!running) {
            return;
        }
        long delay = Math.min(delayMicros, intervalMicros);
        long at = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(delay);
        if (armed != null && !armed.isDone() && armedAtNanos - at <= 0) {
            return;
        }
        if (armed != null) {
            armed.cancel(false);
        }
        armedAtNanos = at;
        armed = timer.schedule(this::step, delay, TimeUnit.MICROSECONDS);
    }

    private void step() {
        synchronized (this) {
            if (!running) {
                return;
            }
            if (stepInFlight) {
                runAgain = true;
                return;
            }
            stepInFlight = true;
            armed = null;
        }
        transferStep().whenComplete((result, error) -> {
            long next;
            synchronized (this) {
                stepInFlight = false;
                if (!running) {
                    return;
                }
                if (error != null) {
                    outage.failed(error);
                    next = TimeUnit.MILLISECONDS.toMicros(backoff.next());
                } else {
                    outage.succeeded();
                    backoff.reset();
                    long delay = result.nextDelayMicros();
                    next = runAgain || delay == 0 ? 0 : delay < 0 ? intervalMicros : delay;
                }
                runAgain = false;
            }
            armIn(next);
        });
    }
}
