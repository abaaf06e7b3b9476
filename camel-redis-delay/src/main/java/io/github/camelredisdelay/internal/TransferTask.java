package io.github.camelredisdelay.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.apache.camel.support.service.ServiceSupport;
import org.redisson.api.RTopic;
import org.redisson.api.listener.MessageListener;
import org.redisson.api.listener.StatusListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves a queue's due messages to its ready stream. It runs at start, then sleeps exactly until the next due
 * time that Redis reports (a relative delay, so client clocks never matter), wakes early when a schedule announces
 * a new earliest message, runs on every (re)subscription to that announcement channel, and at least every
 * {@code interval} as a safety net against a lost announcement. While Redis is unreachable it backs off.
 * <p>
 * The Redis calls are asynchronous; the timer thread only arms timers, so one thread serves many queues.
 */
public final class TransferTask extends ServiceSupport {

    private static final Logger LOG = LoggerFactory.getLogger(TransferTask.class);

    private final RedisQueue queue;
    private final ScheduledExecutorService timer;
    private final int batchSize;
    private final long intervalMs;
    private final OutageLog outage;
    private final Backoff backoff;
    private final Runnable onSubscribed;

    private RTopic wakeTopic;
    private int wakeListenerId = -1;
    private int statusListenerId = -1;

    // guarded by this
    private ScheduledFuture<?> armed;
    private long armedAtNanos;
    private boolean stepInFlight;
    private boolean runAgain;

    /**
     * @param onSubscribed runs on every resubscription to the announcement channel, after a reconnect
     */
    public TransferTask(RedisQueue queue, ScheduledExecutorService timer, int batchSize, long intervalMs,
                        Runnable onSubscribed) {
        this.queue = queue;
        this.onSubscribed = onSubscribed;
        this.timer = timer;
        this.batchSize = batchSize;
        this.intervalMs = intervalMs;
        this.outage = new OutageLog(LOG, "Transfer task of queue " + queue.name());
        this.backoff = new Backoff(Math.min(50, intervalMs), Math.min(intervalMs, 1000));
    }

    @Override
    protected void doStart() {
        wakeTopic = queue.wakeTopic();
        // on the timer thread: subscribing may wait for a connection, and start must not wait for Redis
        timer.execute(this::subscribe);
        armIn(0);
    }

    @Override
    protected void doStop() {
        synchronized (this) {
            if (armed != null) {
                armed.cancel(false);
                armed = null;
            }
        }
        if (wakeListenerId >= 0 || statusListenerId >= 0) {
            try {
                wakeTopic.removeListener(wakeListenerId, statusListenerId);
            } catch (RuntimeException e) {
                LOG.debug("Could not unsubscribe from {}: {}", queue.keys().wake(), e.toString());
            }
        }
        wakeListenerId = -1;
        statusListenerId = -1;
    }

    private void subscribe() {
        MessageListener<String> onWake = (channel, delay) -> armIn(parseDelay(delay));
        StatusListener onStatus = new StatusListener() {
            @Override
            public void onSubscribe(String channel) {
                // (re)subscribed, possibly after a reconnect: announcements may have been missed meanwhile
                armIn(0);
                onSubscribed.run();
            }

            @Override
            public void onUnsubscribe(String channel) {
                // nothing to do: the safety-net interval keeps the task running
            }
        };
        try {
            wakeTopic.addListenerAsync(String.class, onWake).whenComplete((id, error) -> {
                if (error != null) {
                    subscribeFailed(error);
                } else {
                    wakeListenerId = id;
                    wakeTopic.addListenerAsync(onStatus).thenAccept(statusId -> statusListenerId = statusId);
                }
            });
        } catch (RuntimeException e) {
            // Redisson throws instead of failing the future when it cannot connect
            subscribeFailed(e);
        }
    }

    private void subscribeFailed(Throwable error) {
        if (isRunAllowed()) {
            outage.failed(error);
            retrySubscribe();
        }
    }

    private void retrySubscribe() {
        if (isRunAllowed()) {
            timer.schedule(() -> {
                if (isRunAllowed() && wakeListenerId < 0) {
                    subscribe();
                }
            }, backoff.next(), TimeUnit.MILLISECONDS);
        }
    }

    private static long parseDelay(String delay) {
        try {
            return Math.max(0, Long.parseLong(delay));
        } catch (NumberFormatException e) {
            return 0;
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
     * Makes sure a step runs within {@code delayMs}; keeps an earlier timer that is already armed.
     */
    private synchronized void armIn(long delayMs) {
        if (!isRunAllowed()) {
            return;
        }
        long delay = Math.min(delayMs, intervalMs);
        long at = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delay);
        if (armed != null && !armed.isDone() && armedAtNanos - at <= 0) {
            return;
        }
        if (armed != null) {
            armed.cancel(false);
        }
        armedAtNanos = at;
        armed = timer.schedule(this::step, delay, TimeUnit.MILLISECONDS);
    }

    private void step() {
        synchronized (this) {
            if (!isRunAllowed()) {
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
                if (!isRunAllowed()) {
                    return;
                }
                if (error != null) {
                    outage.failed(error);
                    next = backoff.next();
                } else {
                    outage.succeeded();
                    backoff.reset();
                    next = runAgain || result.nextDelayMs() == 0 ? 0 : result.nextDelayMs() < 0 ? intervalMs : result.nextDelayMs();
                }
                runAgain = false;
            }
            armIn(next);
        });
    }
}
