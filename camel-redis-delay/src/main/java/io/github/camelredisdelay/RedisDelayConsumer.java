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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.camelredisdelay.internal.Backoff;
import io.github.camelredisdelay.internal.Delivery;
import io.github.camelredisdelay.internal.ReadySignal;
import io.github.camelredisdelay.internal.SilentRedis;
import io.github.camelredisdelay.internal.WakeChannels;
import org.apache.camel.Processor;
import org.apache.camel.ShutdownRunningTask;
import org.apache.camel.Suspendable;
import org.apache.camel.spi.ShutdownAware;
import org.apache.camel.support.DefaultConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The blocking consumer: {@code concurrentConsumers} threads per shard of the queue read the ready stream through the
 * consumer group, so each message goes to one consumer of all nodes as soon as it is due. A thread that found nothing
 * waits for the shard's "ready" notice ({@link WakeChannels}), at most {@value #IDLE_WAIT_MS} ms as a safety net
 * against a lost notice, so an idle queue holds no Redis connection; while its queue is busy (its last read found
 * messages, or a notice came) it may instead block in Redis for the next ones, which saves the notice's hop and lets
 * Redis share the messages among the blocked consumers of all nodes. It also takes over messages whose lease expired
 * (their consumer died) and extends the leases of its own running exchanges.
 * <p>
 * A thread waits for each exchange it routes; with {@code asyncConsumer} it hands them to Camel's asynchronous routing
 * engine instead and keeps up to {@code maxMessagesPerPoll} in flight, so a route that waits on non-blocking I/O is not
 * limited to one message per thread.
 * <p>
 * Redis errors while fetching are logged (rate-limited by {@link FetchFailures}); with {@code bridgeErrorHandler} they
 * also go to the route's error handler, as often as they are logged at WARN.
 * <p>
 * On graceful shutdown it stops fetching, finishes and settles the exchanges under way within the shutdown strategy's
 * timeout; anything unfinished stays leased in Redis and is delivered again after {@code visibilityTimeout}. The rest
 * of a fetched batch follows the route's {@code shutdownRunningTask}: routed with {@code CompleteAllTasks}, handed back
 * at once with Camel's default, {@code CompleteCurrentTaskOnly}.
 * <p>
 * Suspended (a route policy such as Camel's throttling ones, or the route controller), its threads fetch nothing until
 * it is resumed, while the exchanges they have fetched go on and keep their leases (the rest of a batch too, unless the
 * shutdown strategy suspends a route that completes only its current task).
 */
public class RedisDelayConsumer extends DefaultConsumer implements ShutdownAware, Suspendable {

    private static final Logger LOG = LoggerFactory.getLogger(RedisDelayConsumer.class);
    /** Longest wait for a "ready" notice after an empty read: the safety net against a lost notice. */
    private static final long IDLE_WAIT_MS = 1000;
    /** How often a suspended reader thread looks for finished messages to acknowledge, and whether it was resumed. */
    private static final long SUSPENDED_WAIT_MS = 100;
    /**
     * After a read that found messages, how long the next read may block in Redis for more, when one of the client's
     * permits (at most {@value RedisDelayComponent#READS_BLOCKING_IN_REDIS}, a quarter of a smaller pool) is free
     * ({@link RedisDelayEndpoint#blockingReadPermits()}): while a queue is busy its new messages then reach the
     * consumer without the notice's hop; each such read holds a pooled connection, hence the bound.
     */
    private static final Duration BUSY_QUEUE_BLOCK = Duration.ofMillis(250);

    private final RedisDelayEndpoint endpoint;
    /** Fetched deliveries whose exchanges have not ended: Camel's shutdown strategy waits for them. */
    private final AtomicInteger pending = new AtomicInteger();
    /**
     * Reads under way, whose batches a stop waits for too: counted apart, so that a consumer suspended while a read is
     * under way (the strategy suspends first) is not reported busy, which would cost a stop the strategy's 1 s wait.
     */
    private final ReadsUnderWay readsUnderWay = new ReadsUnderWay();
    private final FetchFailures fetchFailures;
    private final StopWait stopWait;
    private final Backoff backoff = new Backoff(50, 1000);

    /** The current start of this consumer, until its stop. */
    private volatile Run run = new Run(false);
    private ShardDeliverers deliverers;
    private List<Reader> readerThreads = List.of();
    private ExecutorService readers;
    private LegacyMigration migration;
    /** Whether Redis is silent, shared by the consumers of the connection; null until the consumer starts. */
    private volatile SilentRedis silence;

    public RedisDelayConsumer(RedisDelayEndpoint endpoint, Processor processor) {
        super(endpoint, processor);
        this.endpoint = endpoint;
        this.fetchFailures = new FetchFailures(endpoint, LOG);
        this.stopWait = new StopWait(endpoint.getCamelContext(), fetchFailures);
    }

    @Override
    public RedisDelayEndpoint getEndpoint() {
        return endpoint;
    }

    @Override
    protected void doStart() throws Exception {
        super.doStart();
        silence = endpoint.silence();
        RedisDelayConfiguration options = endpoint.getConfiguration();
        deliverers = new ShardDeliverers(endpoint, true);
        stopWait.running();
        Run thisRun = new Run(true);
        run = thisRun;
        deliverers.start(this, fetchFailures);
        List<Deliverer> shards = deliverers.all();
        WakeChannels wake = endpoint.wakeChannels();
        List<Reader> started = new ArrayList<>();
        for (int i = 0; i < options.getConcurrentConsumers(); i++) {
            for (Deliverer shard : shards) {
                Reader reader = new Reader(shard, new ReadySignal(), thisRun);
                wake.listen(shard.wakeChannel(), reader.signal());
                started.add(reader);
            }
        }
        readerThreads = List.copyOf(started);
        readers = endpoint.getCamelContext().getExecutorServiceManager().newFixedThreadPool(this,
                "RedisDelayConsumer[" + endpoint.getQueueName() + "]", readerThreads.size());
        int inFlightPerThread = options.isAsyncConsumer() ? options.getMaxMessagesPerPoll() : 0;
        readerThreads.forEach(reader -> readers.execute(() -> fetchLoop(reader, inFlightPerThread)));
        migration = LegacyMigration.startFor(endpoint, this);
    }

    @Override
    protected void doStop() throws Exception {
        if (migration != null) {
            migration.stop();
            migration = null;
        }
        Run stopping = run;
        stopping.fetching = false;
        readerThreads.forEach(reader -> reader.signal().close());
        // fetched exchanges finish, routed or still to route, while their leases are kept alive
        boolean redisUnreachable = awaitExchangesInFlight() || fetchFailures.isDown();
        stopping.waitOver = true;
        if (readers != null) {
            if (redisUnreachable && pending.get() == 0) {
                // nothing left to route: a reader stuck in a call Redis leaves unanswered, or in the client's retries,
                // would cost the stop the 2 s below, and consumers stop one after another
                endpoint.getCamelContext().getExecutorServiceManager().shutdownNow(readers);
            } else {
                // waiting threads return at once; while Redis is down, interrupt Redisson's retries
                endpoint.getCamelContext().getExecutorServiceManager().shutdownGraceful(readers, 2000);
            }
            readers = null;
        }
        readerThreads.forEach(reader -> endpoint.wakeChannels().stopListening(reader.shard().wakeChannel(), reader.signal()));
        readerThreads = List.of();
        if (deliverers != null) {
            // while Redis is unreachable or silent, leaving the consumer group is not waited for
            deliverers.stop(redisUnreachable);
        }
        super.doStop();
    }

    /**
     * One reader thread's loop. With {@code inFlightLimit} 0 it routes each fetched message and waits for its exchange;
     * otherwise it keeps up to that many exchanges in flight, and each that ends wakes it to fetch more (which also
     * acknowledges the finished ones).
     */
    private void fetchLoop(Reader reader, int inFlightLimit) {
        Deliverer deliverer = reader.shard();
        ReadySignal ready = reader.signal();
        Run run = reader.run();
        AtomicInteger inFlight = new AtomicInteger();
        Semaphore blockingReads = endpoint.blockingReadPermits();
        int count = endpoint.getConfiguration().getMaxMessagesPerPoll();
        boolean busy = false;
        while (run.fetching && isRunAllowed()) {
            clearStrayInterrupt(run, deliverer);
            long seen = ready.generation();
            int room = inFlightLimit == 0 ? count : inFlightLimit - inFlight.get();
            if (isSuspendingOrSuspended() || !endpoint.readsAllowed()) {
                // no read acknowledges what finished before the suspension (or while this endpoint's shards differs
                // from its queue's: it would read only part of the queue; logged, and its health check is DOWN)
                deliverer.acknowledgements().flushOverdue();
                idle(ready, seen, SUSPENDED_WAIT_MS);
                continue;
            }
            if (room <= 0) {
                idle(ready, seen, IDLE_WAIT_MS);
                continue;
            }
            // a stop must wait for what a read under way brings: its batch is pending before the read ends
            readsUnderWay.begin();
            if (!run.fetching) {
                // a stop that counted the reads before this one began: it does not wait for it, so it must not start
                readsUnderWay.end();
                break;
            }
            Duration block = busy && blockingReads.tryAcquire() ? BUSY_QUEUE_BLOCK : null;
            List<Delivery> batch;
            try {
                batch = deliverer.fetch(room, block);
                pending.addAndGet(batch.size());
                fetchFailures.succeeded();
                silence.answered();
                backoff.reset();
            } catch (RuntimeException e) {
                busy = false;
                if (!run.fetching) {
                    break;
                }
                fetchFailures.failed(e, getExceptionHandler());
                idle(ready, seen, backoff.next());
                continue;
            } finally {
                readsUnderWay.end();
                if (block != null) {
                    blockingReads.release();
                }
            }
            busy = !batch.isEmpty();
            if (batch.isEmpty()) {
                idle(ready, seen, IDLE_WAIT_MS);
                // a notice means the queue is busy even when others took its messages: wait in Redis beside them
                busy = ready.generation() != seen;
                continue;
            }
            if (run.fetching && isSuspendingOrSuspended()) {
                // suspended (not stopping) while the read waited in Redis: what it brought goes back, its delivery
                // uncounted, for whichever consumer reads first
                deliverer.handBack(batch);
                pending.addAndGet(-batch.size());
                continue;
            }
            // what is handed back, by the stop below or by the lease timer after waiting behind a slow exchange, is
            // no longer pending here from then on
            FetchedBatch fetched = deliverer.inTurn(batch, handedBack -> pending.addAndGet(-handedBack));
            while (true) {
                if (run.waitOver || !run.fetching && stopWait.timedOut() || !stopWait.routesRestOfBatch()) {
                    // its stop waits no more (its time, or the shutdown strategy's, ran out; or the consumer started
                    // again meanwhile), or the strategy stops or suspends a route that completes only its current
                    // exchange: the rest goes back to the queue, its delivery uncounted
                    deliverer.handBack(fetched.takeRest());
                    break;
                }
                Delivery delivery = fetched.next();
                if (delivery == null) {
                    break;
                }
                if (inFlightLimit == 0) {
                    try {
                        // clears an interrupt the route left (Deliverer.clearStrayInterrupt)
                        deliverer.deliver(delivery, this);
                    } finally {
                        pending.decrementAndGet();
                    }
                } else {
                    inFlight.incrementAndGet();
                    deliverer.deliverAsync(delivery, this, () -> {
                        inFlight.decrementAndGet();
                        pending.decrementAndGet();
                        ready.messagesReady();
                    });
                }
            }
        }
    }

    /**
     * Lets fetched exchanges end (a reader thread routes the rest of its batch; asynchronously routed ones complete
     * elsewhere), and reads under way bring their batch, so that they are acknowledged rather than delivered again.
     *
     * @return whether Redis is silent: it left a read of this consumer unanswered, which is not waited for, or another
     *         consumer of the connection found so at its stop (then no read is waited for)
     */
    private boolean awaitExchangesInFlight() {
        if (silence == null) {
            // never started (Camel stops the consumers of a route whose start failed): nothing fetched, nothing to wait for
            return false;
        }
        stopWait.forWorkUnderWay(() -> pending.get() + (silence.isSilent() ? 0 : readsUnderWay.awaited()));
        if (readsUnderWay.unanswered()) {
            silence.waitedInVain();
        }
        return silence.isSilent();
    }

    /**
     * Clears an interrupt that a route left on this reader thread (code that catches an {@link InterruptedException}
     * and sets the flag again, say), or that came from elsewhere while it waited: a stop ends the run's fetching before
     * it interrupts, so while fetching one is not a stop's, and left set it would fail the next read.
     */
    private static void clearStrayInterrupt(Run run, Deliverer deliverer) {
        if (Thread.interrupted() && run.fetching) {
            deliverer.strayInterruptCleared();
        }
    }

    /**
     * Waits for a ready notice newer than {@code seen}, at most {@code millis}; returns at once when stopping or
     * interrupted. The interrupt is kept: a stop's ends the loop, which its stop ended first, and one from elsewhere is
     * cleared at the top of the loop ({@link #clearStrayInterrupt}).
     */
    private static void idle(ReadySignal ready, long seen, long millis) {
        try {
            ready.awaitAfter(seen, millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A reader thread's shard and the signal it waits on, which its shard's ready notices and its own exchanges wake.
     */
    private record Reader(Deliverer shard, ReadySignal signal, Run run) {
    }

    /**
     * One start of this consumer, until its stop. Each start has its own, so that a reader thread of an earlier one
     * that its stop could not end (an exchange deaf to the interrupt) never fetches again beside the new threads.
     */
    private static final class Run {

        /** Whether its reader threads read: a stop, or the shutdown strategy preparing one, ends it. */
        volatile boolean fetching;
        /** Whether its stop has waited all it waits for its exchanges; a batch's rest still to route then goes back. */
        volatile boolean waitOver;

        Run(boolean fetching) {
            this.fetching = fetching;
        }
    }

    @Override
    public boolean deferShutdown(ShutdownRunningTask shutdownRunningTask) {
        stopWait.strategyBegins(shutdownRunningTask);
        return false;
    }

    @Override
    public int getPendingExchangesSize() {
        return pending.get();
    }

    @Override
    public void prepareShutdown(boolean suspendOnly, boolean forced) {
        if (!suspendOnly) {
            stopWait.prepared(forced);
            run.fetching = false;
        }
    }

    @Override
    protected void doSuspend() throws Exception {
        stopWait.suspended();
        super.doSuspend();
    }

    @Override
    protected void doResume() throws Exception {
        stopWait.running();
        super.doResume();
    }
}
