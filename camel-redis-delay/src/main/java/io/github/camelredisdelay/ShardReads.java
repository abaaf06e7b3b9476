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

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.camelredisdelay.internal.Backoff;
import io.github.camelredisdelay.internal.Delivery;
import io.github.camelredisdelay.internal.Futures;
import io.github.camelredisdelay.internal.OutageLog;

/**
 * The reads of one shard for the receivers of a sharded queue ({@link RedisDelayPollingConsumer}): each runs on
 * {@code readers}, off the receiver's thread, which waits for it a moment only ({@link ShardAnswerWait}: 250 ms, longer
 * on a slow link), so that a shard whose master does not answer (a paused server, an address whose packets are dropped)
 * holds a receiver up that long, not the client's whole retry time, and the other shards are still asked. While a read
 * a receiver gave up on is under way, the shard is not asked again; after a failed read, not before a back-off. What a
 * read a receiver gave up on brings is handed back ({@link Deliverer#handBack}): its lease ends at once, and any
 * consumer, this one included, takes it over at its next read, without counting that delivery.
 */
final class ShardReads {

    private final Deliverer deliverer;
    private final ExecutorService readers;
    private final OutageLog outage;
    private final Backoff backoff = new Backoff(50, 1000);
    private final ShardAnswerWait answerWait = new ShardAnswerWait();
    /** Reads under way that their receiver gave up on. */
    private final AtomicInteger unanswered = new AtomicInteger();
    private volatile long askAgainAt = System.nanoTime();

    /**
     * @param outage where the failures of this shard's reads are logged, once per outage
     */
    ShardReads(Deliverer deliverer, ExecutorService readers, OutageLog outage) {
        this.deliverer = deliverer;
        this.readers = readers;
        this.outage = outage;
    }

    Deliverer deliverer() {
        return deliverer;
    }

    /**
     * Reads up to one message without waiting in Redis, for a receive with {@code leftMs} left of its timeout, waiting
     * for the answer at most {@code mostMs}.
     *
     * @return                  what the shard answered (maybe nothing), or {@code null} when it is not asked (a read
     *                          left unanswered is under way, or it is backed off after a failure) or did not answer in
     *                          time
     * @throws RuntimeException the read's failure, when it came in time (also logged)
     */
    List<Delivery> read(long leftMs, long mostMs) {
        Read read = send();
        return read == null ? null : read.await(leftMs, mostMs);
    }

    /**
     * Sends a read of up to one message without waiting for its answer: {@code null} when the shard is not asked (a
     * read left unanswered is under way, or it is backed off after a failure).
     */
    Read send() {
        if (unanswered.get() > 0 || System.nanoTime() - askAgainAt < 0) {
            return null;
        }
        return new Read();
    }

    /** A read sent to the shard, whose answer its receiver waits for a moment only, or hands back unused. */
    final class Read {

        private final AtomicBoolean waitOver = new AtomicBoolean();
        private final long sentAt = System.nanoTime();
        private final CompletableFuture<List<Delivery>> reply
                = CompletableFuture.supplyAsync(() -> deliverer.fetch(1, null), readers);

        private Read() {
            reply.whenComplete((batch, failure) -> ended(batch, failure, waitOver, sentAt));
        }

        Deliverer deliverer() {
            return deliverer;
        }

        /**
         * The answer, waited for until the shard's answer wait for a receive with {@code leftMs} left has passed since
         * the read was sent, and at most {@code mostMs}: as {@link #read}.
         */
        List<Delivery> await(long leftMs, long mostMs) {
            long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sentAt);
            try {
                return reply.get(Math.max(0, Math.min(answerWait.millis(leftMs) - waitedMs, mostMs)),
                        TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                return Futures.await(reply);
            } catch (TimeoutException e) {
                return giveUp();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return giveUp();
            }
        }

        /**
         * The receiver took another shard's message: what this read brings goes back to the queue
         * ({@link Deliverer#handBack}), now or when it ends.
         */
        void handBack() {
            List<Delivery> batch;
            try {
                batch = giveUp();
            } catch (RuntimeException e) {
                // the read failed: logged when it ended
                return;
            }
            if (batch != null) {
                deliverer.handBack(batch);
            }
        }

        /** The receiver waits no more: {@code null}, unless the read ended meanwhile, before it could see that. */
        private List<Delivery> giveUp() {
            if (waitOver.compareAndSet(false, true)) {
                unanswered.incrementAndGet();
                return null;
            }
            return Futures.await(reply);
        }
    }

    /**
     * A read sent at {@code sentAt} ended: its outcome and how long it took are noted, and what it brought is handed
     * back when its receiver gave up on it.
     */
    private void ended(List<Delivery> batch, Throwable failure, AtomicBoolean waitOver, long sentAt) {
        boolean givenUp = !waitOver.compareAndSet(false, true);
        if (failure != null) {
            outage.failed(Futures.unwrap(failure));
            askAgainAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(backoff.next());
        } else {
            answerWait.answered(System.nanoTime() - sentAt);
            outage.succeeded();
            backoff.reset();
            if (givenUp) {
                deliverer.handBack(batch);
            }
        }
        if (givenUp) {
            unanswered.decrementAndGet();
        }
    }
}
