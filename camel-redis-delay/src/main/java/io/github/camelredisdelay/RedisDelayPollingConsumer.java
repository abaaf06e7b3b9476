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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import io.github.camelredisdelay.internal.Delivery;
import io.github.camelredisdelay.internal.OutageLog;
import io.github.camelredisdelay.internal.ReadySignal;
import io.github.camelredisdelay.internal.WakeChannels;
import org.apache.camel.DynamicPollingConsumer;
import org.apache.camel.Exchange;
import org.apache.camel.support.PollingConsumerSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Camel {@code PollingConsumer} of the endpoint, which lets a {@code ConsumerTemplate} or {@code pollEnrich}
 * receive due messages (route consumers are {@link RedisDelayConsumer} and {@link RedisDelayScheduledPollConsumer}):
 * {@code receive}, {@code receive(timeout)} and {@code receiveNoWait} each take one message. The message is
 * acknowledged when the exchange's unit of work is done: {@code receiveBody*} do that at once; after {@code receive}
 * call {@code consumerTemplate.doneUoW(exchange)}. Until then it stays leased, without extension: if it is not done
 * within {@code visibilityTimeout}, the message is delivered again. A message {@code pollEnrich} takes (through the
 * {@link DynamicPollingConsumer} methods, which name the exchange that takes it) goes on in that exchange's route: its
 * lease is kept alive until the route is done with it, as a route consumer's are. Done with a failed exchange, it is
 * retried or dead-lettered like any failed delivery; so it is when the aggregation strategy failed, and Camel dropped
 * the exchange that took it. An exchange handed on to another route ({@code seda:}) is settled by that route's copy
 * when it is done, whatever the taking route does afterwards.
 */
public class RedisDelayPollingConsumer extends PollingConsumerSupport implements DynamicPollingConsumer {

    private static final Logger LOG = LoggerFactory.getLogger(RedisDelayPollingConsumer.class);
    private static final Duration LONGEST_WAIT = Duration.ofSeconds(1);

    private final RedisDelayEndpoint endpoint;
    private ShardDeliverers shards;
    /** The reads of each shard of a sharded queue, shard 0 first; none for a queue of one shard. */
    private volatile List<ShardReads> shardReads = List.of();
    /** Counts the takes of a sharded queue: each asks first the shard after the one the previous asked first. */
    private final AtomicInteger takes = new AtomicInteger();
    /** Where the reads of a sharded queue run, off the receivers' threads. */
    private ExecutorService readers;
    /**
     * The queue's "ready" notices, which a receiver without a blocking-read permit waits for: a new one each start,
     * closed by the stop.
     */
    private volatile ReadySignal ready = new ReadySignal();
    /** Where {@link #ready} listens from start to stop: the endpoint may let go of it first. */
    private WakeChannels readyChannels;

    public RedisDelayPollingConsumer(RedisDelayEndpoint endpoint) {
        super(endpoint);
        this.endpoint = endpoint;
    }

    @Override
    protected void doStart() throws Exception {
        endpoint.pollingConsumerStarted(this);
        shards = new ShardDeliverers(endpoint, false);
        shards.keepLeases();
        if (shards.all().size() > 1) {
            readers = endpoint.getCamelContext().getExecutorServiceManager().newCachedThreadPool(this,
                    "RedisDelayPollingConsumer[" + endpoint.getQueueName() + "]");
            List<Deliverer> all = shards.all();
            shardReads = IntStream.range(0, all.size()).mapToObj(i -> new ShardReads(
                    all.get(i), readers,
                    new OutageLog(LOG, "Receiver of shard " + i + " of queue " + endpoint.getQueueName()))).toList();
        }
        ReadySignal signal = new ReadySignal();
        WakeChannels wake = endpoint.wakeChannels();
        shards.all().forEach(shard -> wake.listen(shard.wakeChannel(), signal));
        readyChannels = wake;
        ready = signal;
        String migrateFrom = endpoint.getConfiguration().getMigrateFrom();
        if (migrateFrom != null) {
            LOG.warn("A ConsumerTemplate or pollEnrich receiving from queue {} does not migrate: migrateFrom={} is an "
                     + "option of a route's consumer. Consume the queue with a route, from(\"redis-delay:{}?migrateFrom={}\"), "
                     + "to migrate that RDelayedQueue",
                    endpoint.getQueueName(), migrateFrom, endpoint.getQueueName(), migrateFrom);
        }
    }

    @Override
    public Exchange receive() {
        return receiveFor(null);
    }

    @Override
    public Exchange receiveNoWait() {
        return take(null, 0, null);
    }

    @Override
    public Exchange receive(long timeout) {
        return receiveFor(timeout, null);
    }

    /** {@code pollEnrich} takes a message for {@code taker}'s route, which it goes on in. */
    @Override
    public Exchange receive(Exchange taker) {
        return receiveFor(taker);
    }

    @Override
    public Exchange receiveNoWait(Exchange taker) {
        return take(null, 0, taker);
    }

    @Override
    public Exchange receive(Exchange taker, long timeout) {
        return receiveFor(timeout, taker);
    }

    private Exchange receiveFor(Exchange taker) {
        Exchange exchange = null;
        while (exchange == null && isRunAllowed()) {
            exchange = take(LONGEST_WAIT, Long.MAX_VALUE, taker);
        }
        return exchange;
    }

    private Exchange receiveFor(long timeout, Exchange taker) {
        // in ms, and up to Long.MAX_VALUE: counted down in ms, as nanoseconds would overflow
        long start = System.nanoTime();
        Exchange exchange = take(null, timeout, taker);
        while (exchange == null && isRunAllowed()) {
            long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            if (waitedMs >= timeout) {
                return null;
            }
            long left = TimeUnit.MILLISECONDS.toNanos(timeout - waitedMs);
            exchange = take(Duration.ofNanos(Math.min(left, LONGEST_WAIT.toNanos())).plusMillis(1), timeout - waitedMs,
                    taker);
        }
        return exchange;
    }

    /**
     * One message, or {@code null} when none came within {@code block}; with a {@code taker} (the exchange of
     * {@code pollEnrich}, whose route runs it), its lease is kept alive until it is settled. A sharded queue is asked
     * shard by shard without waiting in Redis, each take beginning with the next shard in turn (so that a backlog on
     * one shard does not hold back the others'), each shard's answer waited for a moment only ({@link ShardReads},
     * within the receive's {@code leftMs}), then waited for, holding no connection, until the next "ready" notice of
     * any of its shards (a read blocking in Redis would wait on one shard only). The shards are asked and the notice
     * waited for within {@code leftMs}, or, for the first take of a receive ({@code block} {@code null}), within one
     * shard's answer wait when that is longer (a receive shorter than the link would otherwise give up on every read):
     * the shards not asked by then are left to the next take, unless that first take's round is one answer wait (a
     * {@code receiveNoWait}, a receive shorter than that): then they are asked all at once ({@link #takeOfAny}), so
     * that a shard which does not answer holds it up at most twice an answer wait and hides no other shard's message. A
     * failed read fails the receive only when no shard answered.
     */
    private Exchange take(Duration block, long leftMs, Exchange taker) {
        Round round = new Round(System.nanoTime(), block == null ? Math.max(leftMs, ShardAnswerWait.FLOOR_MS) : leftMs);
        List<Deliverer> deliverers = shards.all();
        if (deliverers.size() == 1) {
            return take(deliverers.get(0), block, taker, round);
        }
        ReadySignal signal = ready;
        long seen = signal.generation();
        requireConsumable();
        Answers answers = new Answers();
        List<ShardReads> reads = shardReads;
        int first = Math.floorMod(takes.getAndIncrement(), reads.size());
        for (int i = 0; i < reads.size(); i++) {
            if (round.over()) {
                if (block == null && leftMs < round.ms()) {
                    // a round of one answer wait, spent on a shard that did not answer: the others are asked too
                    Exchange exchange = takeOfAny(reads, first + i, reads.size() - i, leftMs, taker, answers);
                    if (exchange != null) {
                        return exchange;
                    }
                }
                break;
            }
            ShardReads shard = reads.get((first + i) % reads.size());
            try {
                Exchange exchange = takeOf(shard.deliverer(), firstRead -> answers
                        .noted(shard.read(leftMs - round.elapsedMs(), round.ms() - round.elapsedMs())), taker, round);
                if (exchange != null) {
                    return exchange;
                }
            } catch (RuntimeException e) {
                answers.failed(e);
            }
        }
        answers.throwWhenNoneAnswered();
        long roundLeftMs = round.ms() - round.elapsedMs();
        if (block != null && roundLeftMs > 0) {
            awaitNotice(signal, seen, block.toMillis() < roundLeftMs ? block : Duration.ofMillis(roundLeftMs));
        }
        return null;
    }

    /**
     * The first message, in turn, of the {@code count} shards from {@code from} on, asked all at once, each answer
     * waited for within the shard's answer wait since it was asked: what the others bring goes back to the queue
     * ({@link ShardReads.Read#handBack}). So a receive shorter than an answer wait asks every shard once, although one
     * did not answer in time.
     */
    private Exchange takeOfAny(
            List<ShardReads> reads, int from, int count, long leftMs, Exchange taker,
            Answers answers) {
        List<ShardReads.Read> sent = IntStream.range(from, from + count)
                .mapToObj(i -> reads.get(i % reads.size()).send()).toList();
        Exchange exchange = null;
        for (ShardReads.Read read : sent) {
            if (read == null) {
                continue;
            }
            if (exchange != null) {
                read.handBack();
                continue;
            }
            try {
                List<Delivery> batch = answers.noted(read.await(leftMs, Long.MAX_VALUE));
                exchange = batch == null ? null : toExchange(read.deliverer(), batch, taker);
            } catch (RuntimeException e) {
                answers.failed(e);
            }
        }
        return exchange;
    }

    /** Whether any shard of a take answered, and the first failure of a shard's read. */
    private static final class Answers {

        private boolean answered;
        private RuntimeException failure;

        /** Notes whether the shard answered ({@code batch} not {@code null}); returns {@code batch}. */
        List<Delivery> noted(List<Delivery> batch) {
            answered |= batch != null;
            return batch;
        }

        void failed(RuntimeException e) {
            failure = failure == null ? e : failure;
        }

        /** A failed read fails the take only when no shard answered. */
        void throwWhenNoneAnswered() {
            if (!answered && failure != null) {
                throw failure;
            }
        }
    }

    /**
     * One message of a shard. A read that would wait in Redis holds one of the client's blocking-read permits
     * ({@link RedisDelayEndpoint#blockingReadPermits()}) while it waits; when none is free the shard is asked without
     * waiting, and the caller then waits here, holding no connection, for the queue's next "ready" notice, at most
     * {@code block} (a notice may be lost: the caller asks again then), as an idle route consumer does.
     */
    private Exchange take(Deliverer deliverer, Duration block, Exchange taker, Round round) {
        if (block == null) {
            return takeNow(deliverer, null, taker, round);
        }
        Semaphore permits = endpoint.blockingReadPermits();
        if (permits.tryAcquire()) {
            try {
                return takeNow(deliverer, block, taker, round);
            } finally {
                permits.release();
            }
        }
        ReadySignal signal = ready;
        long seen = signal.generation();
        Exchange exchange = takeNow(deliverer, null, taker, round);
        if (exchange == null) {
            awaitNotice(signal, seen, block);
        }
        return exchange;
    }

    /**
     * Waits for a "ready" notice newer than {@code seen} (noted before the reads, so that a notice arriving during them
     * is not missed), at most {@code block}: a notice may be lost, the caller asks again then.
     */
    private static void awaitNotice(ReadySignal signal, long seen, Duration block) {
        try {
            signal.awaitAfter(seen, Math.max(1, block.toMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One message of a queue of one shard, whose first read waits in Redis at most {@code block}. */
    private Exchange takeNow(Deliverer deliverer, Duration block, Exchange taker, Round round) {
        requireConsumable();
        return takeOf(deliverer, firstRead -> deliverer.fetch(1, firstRead ? block : null), taker, round);
    }

    /**
     * The exchange of a shard's reads: while a read brought only deliveries settled instead of going to the caller
     * (sent to the dead-letter queue as exhausted or unreadable), the shard is read again, so that a message ready
     * behind them goes to the caller, but not after the take's {@code round} is over: a backlog of such messages holds
     * a {@code receiveNoWait} up one round (250 ms) at most, and a receive no longer than its timeout (or that round);
     * the next receives settle the rest.
     *
     * @return the exchange, or {@code null} when a read brought nothing or did not answer, or the round is over
     */
    private Exchange takeOf(Deliverer deliverer, ShardRead read, Exchange taker, Round round) {
        boolean firstRead = true;
        while (true) {
            List<Delivery> batch = read.read(firstRead);
            firstRead = false;
            Exchange exchange = batch == null ? null : toExchange(deliverer, batch, taker);
            if (exchange != null || !noneTaken(batch) || round.over()) {
                return exchange;
            }
        }
    }

    /** One read of a shard, {@code null} when it did not answer; the first of a take may wait in Redis. */
    @FunctionalInterface
    private interface ShardRead {
        List<Delivery> read(boolean firstRead);
    }

    /**
     * The time of a take, {@code ms} from {@code startNanos} (up to {@link Long#MAX_VALUE}: counted in ms, as
     * nanoseconds would overflow).
     */
    private record Round(long startNanos, long ms) {

        long elapsedMs() {
            return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
        }

        boolean over() {
            return elapsedMs() >= ms;
        }
    }

    /**
     * Whether a read brought deliveries, none of which goes to the caller while this consumer runs: each was settled
     * instead (sent to the dead-letter queue as exhausted or unreadable, say), so asking again brings the next message.
     */
    private boolean noneTaken(List<Delivery> batch) {
        return batch != null && !batch.isEmpty() && isRunAllowed();
    }

    private void requireConsumable() {
        endpoint.requireUsableQueue();
        String deadLetterProblem = endpoint.consumerProblem();
        if (deadLetterProblem != null) {
            throw new IllegalStateException(deadLetterProblem);
        }
    }

    /**
     * The exchange of the first fetched delivery that goes to the caller, or {@code null}. One a {@code taker} takes is
     * settled when the taker is done at the latest, should Camel drop it rather than hand its completion over. What a
     * read under way when this consumer stopped brings goes back to the queue, its delivery uncounted, as a route
     * consumer's does: no caller of a stopped consumer gets it.
     */
    private Exchange toExchange(Deliverer deliverer, List<Delivery> batch, Exchange taker) {
        if (!isRunAllowed()) {
            deliverer.handBack(batch);
            return null;
        }
        for (Delivery delivery : batch) {
            Exchange exchange = endpoint.createExchange();
            DeliveryCompletion completion = deliverer.prepare(delivery, exchange, false);
            if (completion != null) {
                if (taker != null) {
                    deliverer.keepLease(delivery);
                    taker.getExchangeExtension().addOnCompletion(completion.whenTakerDone());
                }
                return exchange;
            }
        }
        return null;
    }

    @Override
    protected void doStop() {
        ReadySignal signal = ready;
        signal.close();
        WakeChannels wake = readyChannels;
        if (wake != null && shards != null) {
            shards.all().forEach(shard -> wake.stopListening(shard.wakeChannel(), signal));
        }
        readyChannels = null;
        if (readers != null) {
            // not interrupted: what a read under way brings is handed back when it ends
            endpoint.getCamelContext().getExecutorServiceManager().shutdown(readers);
            readers = null;
        }
        // a received exchange settles itself when its unit of work is done; this consumer leaves the consumer group,
        // unless it still holds messages (retire.lua)
        try {
            if (shards != null) {
                shards.stop(false);
            }
        } finally {
            endpoint.pollingConsumerStopped(this);
        }
    }
}
