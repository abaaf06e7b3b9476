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

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Statistics of one queue, shared by every endpoint of the queue in one CamelContext: the counts Redis holds, read into
 * a {@link QueueSnapshot} at most once every {@link #MAX_AGE_MS} however many readers ask (the {@code stats} operation,
 * JMX attributes, the dev console, metrics), and what this JVM measured itself (delivery lateness, and the offset
 * between its clock and Redis' clock that lateness is corrected by).
 */
public final class QueueStatistics {

    /** Longest time a snapshot is reused before the next read refreshes it. */
    public static final long MAX_AGE_MS = 2_000;
    /** Longest time a monitoring read waits for a refresh, from the refresh's start. */
    public static final long MONITORING_WAIT_MS = 1_000;

    /** The queue of the endpoint that started first: counted while no endpoint's shards agree with the queue's. */
    private final ShardedQueue queue;
    /** The queues of the running endpoints, in the order they started, each with its shard count problem. */
    private final List<QueueClaim> queueClaims = new CopyOnWriteArrayList<>();
    /** The dead-letter queue of the endpoint that started first: counted while no consumer and no endpoint runs. */
    private final ShardedQueue firstDeadLetterQueue;
    /** The dead-letter queue of the best claim of the running consumers; {@code null} while none runs. */
    private volatile ShardedQueue consumersDeadLetterQueue;
    /** The dead-letter queues of the running consumers, in the order they started. */
    private final List<DeadLetterClaim> deadLetterClaims = new ArrayList<>();
    private final LatenessWindow lateness = new LatenessWindow();
    private final SilentRedis silence;
    private final Object refreshLock = new Object();
    private volatile Taken last;
    /** The last refresh when it failed, until a refresh succeeds. */
    private volatile FailedRefresh lastFailure;
    /** The last refresh started, under way or done; guarded by {@link #refreshLock}. */
    private Refresh refreshing;
    private volatile long clockOffsetMs;
    /**
     * The round trip, ms, of the measurement {@link #clockOffsetMs} comes from: the offset is Redis' time minus the
     * round trip's midpoint, so a longer one (the client's first call, which waits for its connection) says less.
     */
    private long offsetRoundTripMs = Long.MAX_VALUE;
    /**
     * The first measurements of the clock offset: the one in flight, or the last one, until one succeeds; a failed one
     * (Redis was down when the statistics were created) is made again by the next delivery.
     */
    private CompletableFuture<Void> firstOffset;
    /** Whether a measurement of the clock offset has succeeded: read by every delivery, without the lock. */
    private volatile boolean offsetMeasured;
    private volatile QueueEvents events = QueueEvents.NONE;

    /**
     * @param silence whether the Redis of the queue's connection left a monitoring read waiting in vain, shared by the
     *                statistics of every queue of the connection
     */
    public QueueStatistics(ShardedQueue queue, ShardedQueue deadLetterQueue, SilentRedis silence) {
        this.queue = queue;
        this.silence = silence;
        this.firstDeadLetterQueue = deadLetterQueue;
    }

    public String queueName() {
        return queue.name();
    }

    /**
     * The dead-letter queue counted: a running consumer's ({@link #countDeadLettersOf}), else that of the running
     * endpoint whose queue is counted ({@link #countQueueOf}), in that endpoint's shard count.
     */
    public ShardedQueue deadLetterQueue() {
        return counted().deadLetterQueue();
    }

    /**
     * Counts the dead letters of the dead-letter queue a consumer of the queue moves exhausted messages to, rather than
     * those of the one these statistics were created with by the endpoint that started first (a producer's, an
     * operator's naming another), until the consumer {@linkplain #stopCountingDeadLettersOf stops}. One a consumer
     * names wins over a consumer's default (a {@code ConsumerTemplate}'s, a route's naming none), whichever started
     * first; between two named ones, or two defaults, the first running stays.
     *
     * @param  named whether the consumer's endpoint names it (its deadLetterQueue option), rather than using the
     *               default
     * @return       the dead-letter queue a running consumer named before, when this one names another; else
     *               {@code null}
     */
    public synchronized String countDeadLettersOf(ShardedQueue used, boolean named) {
        deadLetterClaims.add(new DeadLetterClaim(used, named));
        String counted = countBestClaim().name();
        return named && !counted.equals(used.name()) ? counted : null;
    }

    /**
     * A consumer that {@linkplain #countDeadLettersOf counted} {@code used} stopped: the best claim of the consumers
     * still running is counted, else the dead-letter queue these statistics were created with.
     */
    public synchronized void stopCountingDeadLettersOf(ShardedQueue used, boolean named) {
        deadLetterClaims.remove(new DeadLetterClaim(used, named));
        countBestClaim();
    }

    /**
     * Counts the first claim that names its queue, else the first claim, else (no consumer runs) the dead-letter queue
     * of the endpoint whose queue is counted.
     */
    private ShardedQueue countBestClaim() {
        ShardedQueue best = deadLetterClaims.stream().filter(DeadLetterClaim::named).findFirst()
                .or(() -> deadLetterClaims.stream().findFirst())
                .map(DeadLetterClaim::queue)
                .orElse(null);
        if (best != consumersDeadLetterQueue) {
            // another endpoint's, even of the same name: one that stopped may have released its client
            // a snapshot of the other is no longer current (isCurrent); a failed read of it says nothing of this one
            consumersDeadLetterQueue = best;
            lastFailure = null;
        }
        return best != null ? best : counted().deadLetterQueue();
    }

    /** A running consumer's dead-letter queue, and whether its endpoint names it. */
    private record DeadLetterClaim(ShardedQueue queue, boolean named) {
    }

    /**
     * Counts the queue as a running endpoint whose {@code shards} agree with the count the queue is stored in sees it:
     * the first such endpoint's queue, else the first running endpoint's, else the one these statistics were created
     * with; and, while no consumer runs, that endpoint's dead-letter queue {@code deadLetters}, in its shard count. An
     * endpoint refused for its shard count (whose {@code consumerProblem} is not {@code null}) may have started first:
     * it would count only its shards.
     */
    public void countQueueOf(ShardedQueue used, ShardedQueue deadLetters, Supplier<String> consumerProblem) {
        queueClaims.add(new QueueClaim(used, deadLetters, consumerProblem));
    }

    /** An endpoint that {@linkplain #countQueueOf counted} {@code used} stopped. */
    public void stopCountingQueueOf(ShardedQueue used) {
        queueClaims.removeIf(claim -> claim.queue() == used);
    }

    /** The queue and the dead-letter queue counted now ({@link #countQueueOf}, {@link #countDeadLettersOf}). */
    private Counted counted() {
        QueueClaim claim = queueClaims.stream().filter(each -> each.consumerProblem().get() == null).findFirst()
                .or(() -> queueClaims.stream().findFirst())
                .orElse(new QueueClaim(queue, firstDeadLetterQueue, () -> null));
        ShardedQueue consumers = consumersDeadLetterQueue;
        return new Counted(claim.queue(), consumers != null ? consumers : claim.deadLetterQueue());
    }

    /**
     * A running endpoint's queue and dead-letter queue, and why its shards cannot be used ({@code null} when they
     * agree).
     */
    private record QueueClaim(ShardedQueue queue, ShardedQueue deadLetterQueue, Supplier<String> consumerProblem) {
    }

    /** The queue and the dead-letter queue a snapshot counts. */
    private record Counted(ShardedQueue queue, ShardedQueue deadLetterQueue) {
    }

    /** The listener to this queue's events; {@link QueueEvents#NONE} until metrics are bound. */
    public QueueEvents events() {
        return events;
    }

    public void events(QueueEvents events) {
        this.events = events;
    }

    /**
     * Records a delivery of a message due at {@code dueAt} (Redis clock) happening now, and tells {@link #events()}.
     * Until the clock offset has been measured once its lateness would be off by the whole offset, so it is recorded
     * once the measurement under way, or one made now when the last failed, has answered.
     */
    public void delivered(long dueAt) {
        long deliveredAt = System.currentTimeMillis();
        CompletableFuture<Void> offset = firstOffsetUnlessMeasured();
        if (offset == null) {
            recordDelivery(deliveredAt, dueAt);
        } else {
            // a measurement that failed again (Redis gone since the delivery) leaves the offset as it is
            offset.whenComplete((measured, failure) -> recordDelivery(deliveredAt, dueAt));
        }
    }

    private void recordDelivery(long deliveredAt, long dueAt) {
        long latenessMs = deliveredAt + clockOffsetMs - dueAt;
        lateness.record(latenessMs);
        events.delivered(latenessMs);
    }

    /**
     * {@code null} once the clock offset has been measured; else the first measurement under way, or a new one when the
     * last failed.
     */
    private CompletableFuture<Void> firstOffsetUnlessMeasured() {
        if (offsetMeasured) {
            return null;
        }
        CompletableFuture<Void> started = new CompletableFuture<>();
        synchronized (this) {
            if (offsetMeasured) {
                return null;
            }
            if (firstOffset != null && !firstOffset.isCompletedExceptionally()) {
                return firstOffset;
            }
            firstOffset = started;
        }
        // outside the lock: until the client has reached Redis once, even an asynchronous call blocks for a connect
        try {
            measureClockOffset().whenComplete((measured, failure) -> {
                if (failure == null) {
                    started.complete(null);
                } else {
                    started.completeExceptionally(failure);
                }
            });
        } catch (RuntimeException e) {
            started.completeExceptionally(e);
        }
        return started;
    }

    /**
     * Measures the clock offset in the background, twice: the first call may wait for the client's connection, which
     * the second does not. A failure leaves the last measurement; when none succeeded yet (Redis is down), the next
     * delivery measures again ({@link #delivered}), as does every refresh of the counts.
     */
    public void measureClockOffsetSoon() {
        CompletableFuture<Void> first = firstOffsetUnlessMeasured();
        if (first != null) {
            first.thenRun(this::measureClockOffset);
        }
    }

    /** One measurement; the second of {@link #measureClockOffsetSoon} finds the connection the first one opened. */
    private CompletionStage<Void> measureClockOffset() {
        long before = System.currentTimeMillis();
        return queue.first().redisTimeMillisAsync()
                .thenAccept(redis -> clockOffsetMeasured(redis, before, System.currentTimeMillis()));
    }

    /**
     * Takes the offset of Redis' time {@code redisNow} read between {@code before} and {@code after} (this JVM's
     * clock), unless its round trip is more than twice as long as the one the current offset comes from, plus 2 ms, and
     * it agrees with the current offset within the error of both (half a round trip and a ms each). One that disagrees
     * shows that a clock moved (a failover to a master whose clock differs, a step of either clock): it is taken, and
     * its round trip is the one later measurements are compared with.
     */
    private synchronized void clockOffsetMeasured(long redisNow, long before, long after) {
        long roundTrip = after - before;
        long offset = redisNow - (before + after) / 2;
        if (!offsetMeasured || roundTrip <= 2 * offsetRoundTripMs + 2) {
            offsetRoundTripMs = Math.min(offsetRoundTripMs, roundTrip);
        } else if (Math.abs(offset - clockOffsetMs) > (roundTrip + offsetRoundTripMs) / 2 + 2) {
            offsetRoundTripMs = roundTrip;
        } else {
            return;
        }
        clockOffsetMs = offset;
        offsetMeasured = true;
    }

    public long clockOffsetMs() {
        return clockOffsetMs;
    }

    public LatenessWindow.Summary lateness() {
        return lateness.summary();
    }

    /**
     * The counts, read from Redis only when the last snapshot is older than {@link #MAX_AGE_MS}: then one
     * {@code stats.lua} call per shard of the queue and one {@code HLEN} per shard of its dead-letter queue, sent at
     * once. Concurrent readers of a stale snapshot wait for one refresh, as long as the client's time-outs let it take.
     * A refresh that failed fails every read for {@link #MAX_AGE_MS} at once.
     *
     * @throws IllegalStateException when the counts cannot be read, naming the failure
     */
    public QueueSnapshot snapshot() {
        return settled(snapshotOrRefresh().future());
    }

    /**
     * The counts as {@link #snapshot()} reads them, for monitoring (gauges, JMX attributes), which must answer while
     * Redis does not: a refresh is waited for at most {@link #MONITORING_WAIT_MS} from its start, and not at all while
     * Redis leaves a monitoring read of any queue of the connection unanswered ({@link SilentRedis}). The refresh goes
     * on meanwhile and its outcome is kept as any other's. A scrape that reads the gauges of many queues by name, one
     * queue's far apart, thus waits about once while Redis stalls, not the client's time-outs once per queue.
     *
     * @throws IllegalStateException when the counts cannot be read, or not in time
     */
    public QueueSnapshot snapshotForMonitoring() {
        Refresh refresh = snapshotOrRefresh();
        awaitForMonitoring("counts", refresh.future(), refresh.startNanos());
        return settled(refresh.future());
    }

    /**
     * Another monitoring read of the queue (the dev console's listings), bounded as {@link #snapshotForMonitoring()}
     * is: not made while Redis leaves a monitoring read of any queue of the connection unanswered, and waited for at
     * most {@link #MONITORING_WAIT_MS}. It runs on a thread of {@code reader}'s, which a read Redis leaves unanswered
     * holds until the client's time-outs end it.
     *
     * @param  what                  what the read lists, for the exception's message
     * @throws IllegalStateException when Redis does not answer in time or leaves another monitoring read unanswered;
     *                               else what the read failed with
     */
    public <T> T readForMonitoring(String what, Supplier<T> read, Executor reader) {
        if (silence.isSilent()) {
            throw new IllegalStateException(
                    "The " + what + " of queue " + queue.name()
                                            + " are not read: Redis leaves another monitoring read unanswered");
        }
        long startNanos = System.nanoTime();
        CompletableFuture<T> reply = CompletableFuture.supplyAsync(read, reader);
        awaitForMonitoring(what, reply, startNanos);
        return Futures.await(reply);
    }

    /**
     * Waits for a monitoring read of the queue's {@code what}, started at {@code startNanos}, at most until
     * {@link #MONITORING_WAIT_MS} after its start, and not at all while Redis leaves a monitoring read of the
     * connection unanswered; one that does not end in time marks Redis so. How the read ended is its caller's to
     * settle.
     *
     * @throws IllegalStateException when the read is not done in time
     */
    private void awaitForMonitoring(String what, Future<?> read, long startNanos) {
        long waitNanos = startNanos + MONITORING_WAIT_MS * 1_000_000L - System.nanoTime();
        if (!read.isDone() && silence.isSilent()) {
            throw unanswered(what, startNanos);
        }
        try {
            read.get(Math.max(0, waitNanos), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            silence.waitedInVain();
            throw unanswered(what, startNanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while reading the " + what + " of queue " + queue.name(), e);
        } catch (ExecutionException e) {
            // settled by the caller, as every reader sees it
        }
    }

    /** A fresh enough snapshot as a refresh done, or else the refresh under way (one is started when none is). */
    private Refresh snapshotOrRefresh() {
        Taken current = last;
        Counted counted = counted();
        if (isCurrent(current, counted, System.nanoTime())) {
            return current.asRefresh();
        }
        synchronized (refreshLock) {
            long now = System.nanoTime();
            current = last;
            if (isCurrent(current, counted, now)) {
                return current.asRefresh();
            }
            FailedRefresh failure = lastFailure;
            if (failure != null && now - failure.atNanos() < MAX_AGE_MS * 1_000_000L) {
                throw failure.explained(queue.name(), now);
            }
            // a refresh done is one whose outcome (above) was too old or is being kept
            if (refreshing == null || refreshing.future().isDone() || !refreshing.counted().equals(counted)) {
                refreshing = startRefresh(counted, now);
            }
            return refreshing;
        }
    }

    private IllegalStateException unanswered(String what, long startNanos) {
        return new IllegalStateException(
                "The " + what + " of queue " + queue.name() + " are not read yet: Redis has not answered for "
                                         + (System.nanoTime() - startNanos) / 1_000_000L + " ms");
    }

    private QueueSnapshot settled(CompletableFuture<QueueSnapshot> refresh) {
        try {
            return Futures.await(refresh);
        } catch (RuntimeException e) {
            throw new FailedRefresh(e, System.nanoTime()).explained(queue.name(), System.nanoTime());
        }
    }

    /**
     * Whether a snapshot is young enough and counts the queue and the dead-letter queue counted now: one a refresh took
     * while an endpoint's start or stop changed them is not.
     */
    private boolean isCurrent(Taken taken, Counted counted, long nowNanos) {
        return taken != null && taken.snapshot().youngerThan(MAX_AGE_MS, nowNanos) && taken.counted().equals(counted);
    }

    /** A snapshot and the queue and dead-letter queue it counted. */
    private record Taken(QueueSnapshot snapshot, Counted counted) {

        Refresh asRefresh() {
            return new Refresh(CompletableFuture.completedFuture(snapshot), snapshot.takenAtNanos(), counted);
        }
    }

    /** Reads the counts of {@code counted}; its outcome becomes the last snapshot or the last failure. */
    private Refresh startRefresh(Counted counted, long startNanos) {
        long before = System.currentTimeMillis();
        ShardedQueue deadLetters = counted.deadLetterQueue();
        CompletableFuture<QueueSnapshot> read;
        try {
            CompletableFuture<QueueCounts> counts = counted.queue().countsAsync().toCompletableFuture();
            CompletableFuture<Long> dead = deadLetters.sizeAsync().toCompletableFuture();
            read = counts.thenCombine(dead, (taken, deadLettered) -> {
                clockOffsetMeasured(taken.redisNow(), before, System.currentTimeMillis());
                return new QueueSnapshot(taken, deadLetters.name(), deadLettered, System.nanoTime());
            });
        } catch (RuntimeException e) {
            // Redisson throws instead of failing the future when it cannot connect
            read = CompletableFuture.failedFuture(e);
        }
        Refresh refresh = new Refresh(read, startNanos, counted);
        read.whenComplete((snapshot, failure) -> refreshed(refresh, snapshot, failure));
        return refresh;
    }

    /** On the thread that completed the refresh, Redisson's I/O thread: no lock. */
    private void refreshed(Refresh refresh, QueueSnapshot snapshot, Throwable failure) {
        if (failure == null) {
            last = new Taken(snapshot, refresh.counted());
            lastFailure = null;
            silence.answered();
        } else {
            Throwable cause = Futures.unwrap(failure);
            lastFailure = new FailedRefresh(
                    cause instanceof RuntimeException runtime ? runtime : new IllegalStateException(cause), System.nanoTime());
        }
    }

    /** A refresh under way: its outcome, when it started, and the queues it counts. */
    private record Refresh(CompletableFuture<QueueSnapshot> future, long startNanos, Counted counted) {
    }

    /**
     * Every statistic by name, from {@link #snapshot()}.
     */
    public Map<String, Object> asMap() {
        return asMap(snapshot());
    }

    /** Every statistic by name, from {@code snapshot}: {@link #snapshotForMonitoring()}'s, say. */
    public Map<String, Object> asMap(QueueSnapshot snapshot) {
        QueueCounts counts = snapshot.counts();
        LatenessWindow.Summary summary = lateness.summary();
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("queue", queue.name());
        stats.put("scheduled", counts.scheduled());
        stats.put("ready", counts.ready());
        stats.put("inFlight", counts.inFlight());
        stats.put("deadLetterQueue", snapshot.deadLetterQueue());
        stats.put("deadLettered", snapshot.deadLettered());
        stats.put("oldestOverdueMs", counts.oldestOverdueMs());
        stats.put("latenessSamples", summary.samples());
        stats.put("latenessP50Ms", summary.p50());
        stats.put("latenessP99Ms", summary.p99());
        stats.put("latenessMaxMs", summary.max());
        stats.put("clockOffsetMs", clockOffsetMs);
        stats.put("snapshotAgeMs", (System.nanoTime() - snapshot.takenAtNanos()) / 1_000_000L);
        return stats;
    }

    /** A refresh that failed, and when. */
    private record FailedRefresh(RuntimeException cause, long atNanos) {

        IllegalStateException explained(String queue, long nowNanos) {
            return new IllegalStateException(
                    "The counts of queue " + queue + " could not be read from Redis "
                                             + (nowNanos - atNanos) / 1_000_000L + " ms ago: " + cause,
                    cause);
        }
    }
}
