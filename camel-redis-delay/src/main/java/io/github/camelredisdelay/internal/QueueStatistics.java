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

    /** The queue of the endpoint that started first: counted while no endpoint's shards agree with the queue's. */
    private final ShardedQueue queue;
    /** The queues of the running endpoints, in the order they started, each with its shard count problem. */
    private final List<QueueClaim> queueClaims = new CopyOnWriteArrayList<>();
    /** The dead-letter queue of the endpoint that started first: counted while no consumer runs. */
    private final ShardedQueue firstDeadLetterQueue;
    private volatile ShardedQueue deadLetterQueue;
    /** The dead-letter queues of the running consumers, in the order they started. */
    private final List<DeadLetterClaim> deadLetterClaims = new ArrayList<>();
    private final LatenessWindow lateness = new LatenessWindow();
    private final Object refreshLock = new Object();
    private volatile Taken last;
    /** The last refresh when it failed, until a refresh succeeds. */
    private volatile FailedRefresh lastFailure;
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

    public QueueStatistics(ShardedQueue queue, ShardedQueue deadLetterQueue) {
        this.queue = queue;
        this.firstDeadLetterQueue = deadLetterQueue;
        this.deadLetterQueue = deadLetterQueue;
    }

    public String queueName() {
        return queue.name();
    }

    /** The dead-letter queue counted: the one an endpoint of the queue named, else the default one. */
    public ShardedQueue deadLetterQueue() {
        return deadLetterQueue;
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

    /** Counts the first claim that names its queue, else the first claim, else the first endpoint's queue. */
    private ShardedQueue countBestClaim() {
        ShardedQueue best = deadLetterClaims.stream().filter(DeadLetterClaim::named).findFirst()
                .or(() -> deadLetterClaims.stream().findFirst())
                .map(DeadLetterClaim::queue)
                .orElse(firstDeadLetterQueue);
        if (best != deadLetterQueue) {
            // another endpoint's, even of the same name: one that stopped may have released its client
            // a snapshot of the other is no longer current (isCurrent); a failed read of it says nothing of this one
            deadLetterQueue = best;
            lastFailure = null;
        }
        return best;
    }

    /** A running consumer's dead-letter queue, and whether its endpoint names it. */
    private record DeadLetterClaim(ShardedQueue queue, boolean named) {
    }

    /**
     * Counts the queue as a running endpoint whose {@code shards} agree with the count the queue is stored in sees it:
     * the first such endpoint's queue, else the first running endpoint's, else the one these statistics were created
     * with. An endpoint refused for its shard count (whose {@code consumerProblem} is not {@code null}) may have
     * started first: it would count only its shards.
     */
    public void countQueueOf(ShardedQueue used, Supplier<String> consumerProblem) {
        queueClaims.add(new QueueClaim(used, consumerProblem));
    }

    /** An endpoint that {@linkplain #countQueueOf counted} {@code used} stopped. */
    public void stopCountingQueueOf(ShardedQueue used) {
        queueClaims.removeIf(claim -> claim.queue() == used);
    }

    private ShardedQueue countedQueue() {
        return queueClaims.stream().filter(claim -> claim.consumerProblem().get() == null).findFirst()
                .or(() -> queueClaims.stream().findFirst())
                .map(QueueClaim::queue)
                .orElse(queue);
    }

    /** A running endpoint's queue, and why its shards cannot be used ({@code null} when they agree). */
    private record QueueClaim(ShardedQueue queue, Supplier<String> consumerProblem) {
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
     * once. Concurrent readers of a stale snapshot wait for one refresh. A refresh that failed fails every read for
     * {@link #MAX_AGE_MS} at once, so while Redis does not answer a scrape of many gauges waits out one refresh, not
     * one per gauge.
     *
     * @throws IllegalStateException when the counts cannot be read, naming the failure
     */
    public QueueSnapshot snapshot() {
        Taken current = last;
        ShardedQueue counted = countedQueue();
        if (isCurrent(current, counted, System.nanoTime())) {
            return current.snapshot();
        }
        synchronized (refreshLock) {
            long now = System.nanoTime();
            current = last;
            if (isCurrent(current, counted, now)) {
                return current.snapshot();
            }
            FailedRefresh failure = lastFailure;
            if (failure != null && now - failure.atNanos() < MAX_AGE_MS * 1_000_000L) {
                throw failure.explained(queue.name(), now);
            }
            try {
                QueueSnapshot taken = refresh(counted);
                last = new Taken(taken, counted);
                lastFailure = null;
                return taken;
            } catch (RuntimeException e) {
                lastFailure = new FailedRefresh(e, System.nanoTime());
                throw lastFailure.explained(queue.name(), System.nanoTime());
            }
        }
    }

    /** The last snapshot taken, however old, or {@code null} before the first. */
    public QueueSnapshot lastSnapshot() {
        Taken taken = last;
        return taken != null ? taken.snapshot() : null;
    }

    /**
     * Whether a snapshot is young enough and counts the queue and the dead-letter queue counted now: one a refresh took
     * while an endpoint's start or stop changed them is not.
     */
    private boolean isCurrent(Taken taken, ShardedQueue counted, long nowNanos) {
        return taken != null && taken.snapshot().youngerThan(MAX_AGE_MS, nowNanos) && taken.queue() == counted
                && taken.snapshot().deadLetterQueue().equals(deadLetterQueue.name());
    }

    /** A snapshot and the queue it counted. */
    private record Taken(QueueSnapshot snapshot, ShardedQueue queue) {
    }

    private QueueSnapshot refresh(ShardedQueue counted) {
        long before = System.currentTimeMillis();
        ShardedQueue deadLetters = deadLetterQueue;
        CompletableFuture<QueueCounts> counts = counted.countsAsync().toCompletableFuture();
        CompletableFuture<Long> dead = deadLetters.sizeAsync().toCompletableFuture();
        QueueCounts read = Futures.await(counts);
        long deadLettered = Futures.await(dead);
        clockOffsetMeasured(read.redisNow(), before, System.currentTimeMillis());
        return new QueueSnapshot(read, deadLetters.name(), deadLettered, System.nanoTime());
    }

    /**
     * Every statistic by name, from {@link #snapshot()}.
     */
    public Map<String, Object> asMap() {
        QueueSnapshot snapshot = snapshot();
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
