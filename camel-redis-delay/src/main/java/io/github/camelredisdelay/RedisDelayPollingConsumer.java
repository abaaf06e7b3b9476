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
import java.util.stream.IntStream;

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
    private final OneShardTake oneShardTake;
    private ShardDeliverers shards;
    /** The take of a sharded queue; {@code null} for a queue of one shard. */
    private volatile ShardedTake shardedTake;
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
        this.oneShardTake = new OneShardTake(endpoint, this::isRunAllowed);
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
            shardedTake = new ShardedTake(
                    IntStream.range(0, all.size()).mapToObj(i -> new ShardReads(
                            all.get(i), readers,
                            new OutageLog(LOG, "Receiver of shard " + i + " of queue " + endpoint.getQueueName()))).toList(),
                    oneShardTake);
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
     * shard by shard without waiting in Redis ({@link ShardedTake}), then waited for, holding no connection, until the
     * next "ready" notice of any of its shards (a read blocking in Redis would wait on one shard only). The shards are
     * asked and the notice waited for within {@code leftMs}, or, for the first take of a receive ({@code block}
     * {@code null}), within one shard's answer wait when that is longer (a receive shorter than the link would
     * otherwise give up on every read).
     */
    private Exchange take(Duration block, long leftMs, Exchange taker) {
        TakeRound round = new TakeRound(
                System.nanoTime(),
                block == null ? Math.max(leftMs, ShardAnswerWait.FLOOR_MS) : leftMs);
        ShardedTake sharded = shardedTake;
        if (sharded == null) {
            return take(shards.all().get(0), block, taker, round);
        }
        ReadySignal signal = ready;
        long seen = signal.generation();
        requireConsumable();
        Exchange exchange = sharded.take(block == null, leftMs, taker, round);
        long roundLeftMs = round.leftMs();
        if (exchange == null && block != null && roundLeftMs > 0) {
            awaitNotice(signal, seen, block.toMillis() < roundLeftMs ? block : Duration.ofMillis(roundLeftMs));
        }
        return exchange;
    }

    /**
     * One message of a shard. A read that would wait in Redis holds one of the client's blocking-read permits
     * ({@link RedisDelayEndpoint#blockingReadPermits()}) while it waits; when none is free the shard is asked without
     * waiting, and the caller then waits here, holding no connection, for the queue's next "ready" notice, at most
     * {@code block} (a notice may be lost: the caller asks again then), as an idle route consumer does.
     */
    private Exchange take(Deliverer deliverer, Duration block, Exchange taker, TakeRound round) {
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
    private Exchange takeNow(Deliverer deliverer, Duration block, Exchange taker, TakeRound round) {
        requireConsumable();
        return oneShardTake.takeOf(deliverer, firstRead -> deliverer.fetch(1, firstRead ? block : null), taker, round);
    }

    private void requireConsumable() {
        endpoint.requireUsableQueue();
        String deadLetterProblem = endpoint.consumerProblem();
        if (deadLetterProblem != null) {
            throw new IllegalStateException(deadLetterProblem);
        }
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
