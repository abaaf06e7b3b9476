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

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

import io.github.camelredisdelay.internal.Delivery;
import io.github.camelredisdelay.internal.LeaseKeeper;
import io.github.camelredisdelay.internal.QueueShard;
import org.redisson.api.stream.PendingEntry;
import org.redisson.api.stream.StreamMessageId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reads of a {@link Deliverer} whose reply never came, which Redis may run later (the client gave up waiting while
 * Redis held the read, as {@code CLIENT PAUSE WRITE} or a {@code FAILOVER} does, or the connection dropped after
 * sending it): fetches that failed, and fetches that took longer than the client waits for the reply to one attempt of
 * a command (its response timeout), which may have had an attempt given up on: a blocking read the client ended as if
 * it found nothing, or a read or script it sent again and got the reply of the second attempt for, Redis having run
 * both. What such a read took stays pending under the consumer, which does not know of it, and so do the entries of a
 * hand-back that failed the same way (which Redis may run later, or never); once Redis answered a read sent after the
 * lost ones (it ran them first), the entries pending under the consumer that it does not hold are handed back, taken
 * over at once with their delivery uncounted, rather than after the visibility timeout as expired leases. Not those it
 * left to expire on purpose ({@link AbandonedLeases}): their delivery happened, and stays counted.
 */
final class LostReads {

    private static final Logger LOG = LoggerFactory.getLogger(LostReads.class);
    /** Most pending entries of the consumer one look reads. */
    private static final int LOOK = 1_000;

    private final QueueShard queue;
    private final String consumerName;
    private final LeaseKeeper leases;
    private final AbandonedLeases abandonedLeases;
    /**
     * The client's response timeout: a fetch that took longer may have had an attempt given up on (a fetch that merely
     * took long, a blocking read waiting longer, say, only costs a look).
     */
    private final long attemptTimeoutNanos;
    /** What makes the consumer's next fetch take over expired and handed-back leases. */
    private final Runnable reclaimSoon;
    private final AtomicLong lost = new AtomicLong();
    /** How many of {@link #lost} the looks have covered; written under the write lock. */
    private volatile long looked;
    /**
     * Fetches hold the read lock while they read and lease what they read; a look holds the write lock, so that it
     * never takes a concurrent fetch's entries for lost ones.
     */
    private final ReentrantReadWriteLock reading = new ReentrantReadWriteLock();

    LostReads(QueueShard queue, String consumerName, LeaseKeeper leases, AbandonedLeases abandonedLeases,
              Duration attemptTimeout, Runnable reclaimSoon) {
        this.queue = queue;
        this.consumerName = consumerName;
        this.leases = leases;
        this.abandonedLeases = abandonedLeases;
        this.attemptTimeoutNanos = attemptTimeout.toNanos();
        this.reclaimSoon = reclaimSoon;
    }

    /**
     * Runs {@code fetch} (a read that leases what it read), counting it when it may be lost, and after it, when
     * {@code look} and Redis answered it in time, hands back what earlier lost reads left.
     */
    List<Delivery> fetch(boolean look, Supplier<List<Delivery>> fetch) {
        long lostBefore = lost.get();
        List<Delivery> fetched;
        reading.readLock().lock();
        // after the wait for a look of another thread's, which is no part of this read
        long started = System.nanoTime();
        try {
            fetched = fetch.get();
        } catch (RuntimeException e) {
            lost.incrementAndGet();
            throw e;
        } finally {
            reading.readLock().unlock();
        }
        if (System.nanoTime() - started > attemptTimeoutNanos) {
            // the client may have given up an attempt that Redis ran (it answered the next one, or, for a blocking
            // read, ended it as if it found nothing): what that attempt took is looked for after the next read
            lost.incrementAndGet();
        } else if (lostBefore != looked && look) {
            // Redis answered this read, sent after those: it ran them first
            handBack(lostBefore);
        }
        return fetched;
    }

    /**
     * A hand-back of entries the consumer no longer holds failed: they stay pending under it, and the look after its
     * next answered read hands them back.
     */
    void handBackFailed() {
        lost.incrementAndGet();
    }

    /**
     * Hands back, at most {@value #LOOK} at a time, the entries pending under the consumer that it neither holds nor
     * left to expire, covering the first {@code lostBefore} lost reads; failing that, it looks again after the next
     * read.
     */
    private void handBack(long lostBefore) {
        reading.writeLock().lock();
        try {
            if (lostBefore <= looked) {
                return;
            }
            List<PendingEntry> pending = queue.group().pendingOf(consumerName, LOOK);
            List<StreamMessageId> left = pending.stream()
                    .filter(entry -> !leases.keeps(entry.getId()) && !abandonedLeases.leftToExpire(entry))
                    .map(PendingEntry::getId).toList();
            if (pending.size() < LOOK) {
                // all of them: the entries left to expire that are not among them were taken over or settled
                abandonedLeases.retainPending(pending);
            }
            if (!left.isEmpty()) {
                reclaimSoon.run();
                queue.group().handBackEntries(consumerName, left);
                LOG.info("Consumer {} handed back {} messages of queue {} that a read or hand-back whose reply never came "
                         + "left with it",
                        consumerName, left.size(), queue.name());
            }
            looked = lostBefore;
        } catch (RuntimeException e) {
            LOG.debug("Consumer {} could not look for what lost reads left with it on queue {}; it looks again after its "
                      + "next read: {}",
                    consumerName, queue.name(), e.toString());
        } finally {
            reading.writeLock().unlock();
        }
    }
}
