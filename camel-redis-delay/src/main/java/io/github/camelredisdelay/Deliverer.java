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
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;
import java.util.stream.Collectors;

import io.github.camelredisdelay.internal.ConsumerGroup;
import io.github.camelredisdelay.internal.ConsumerNames;
import io.github.camelredisdelay.internal.CorruptEnvelopeException;
import io.github.camelredisdelay.internal.DeadLetters;
import io.github.camelredisdelay.internal.Delivery;
import io.github.camelredisdelay.internal.Futures;
import io.github.camelredisdelay.internal.LeaseKeeper;
import io.github.camelredisdelay.internal.LogText;
import io.github.camelredisdelay.internal.QueueShard;
import io.github.camelredisdelay.internal.Reclaimed;
import io.github.camelredisdelay.internal.ResponseTimeout;
import io.github.camelredisdelay.internal.RetryPolicy;
import io.github.camelredisdelay.internal.SilentRedis;
import io.github.camelredisdelay.internal.WakeChannels;
import io.github.camelredisdelay.internal.WakeListener;
import org.apache.camel.Exchange;
import org.apache.camel.spi.ExceptionHandler;
import org.apache.camel.support.BridgeExceptionHandlerToErrorHandler;
import org.apache.camel.support.DefaultConsumer;
import org.apache.camel.support.LoggingExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every kind of consumer of a queue does with Redis: fetch messages (expired leases first, then new ones), turn
 * each into an exchange whose completion its {@link Settlement} settles, and keep the leases of running exchanges
 * alive. One instance per consumer and shard of the queue, with its own name in the shard's consumer group.
 */
final class Deliverer {

    private static final Logger LOG = LoggerFactory.getLogger(Deliverer.class);
    /** Longest wait of a stop for leaving the consumer group, while Redis answers as far as the consumer knows. */
    private static final long LEAVE_WAIT_MS = 2000;

    private final RedisDelayEndpoint endpoint;
    private final QueueShard queue;
    private final String consumerName;
    /** Whether a route's consumer fetches for this deliverer ({@link #Deliverer}). */
    private final boolean forRoute;
    private final LeaseKeeper leases;
    private final Acknowledgements acks;
    private final Settlement settlement;
    private final DroppedCopies droppedCopies = new DroppedCopies();
    /** Whether a stray interrupt of the consumer's thread was reported already ({@link #strayInterruptCleared}). */
    private volatile boolean strayInterruptReported;
    /**
     * Batches whose rest the lease timer hands back once it waited a visibility timeout ({@link #inTurn}), each until
     * all of it was taken.
     */
    private final Set<FetchedBatch> batchesInTurn = ConcurrentHashMap.newKeySet();
    private final AtomicLong nextReclaimNanos = new AtomicLong(System.nanoTime());
    /** Where the next look for expired leases starts in the pending list. */
    private volatile String reclaimCursor = Reclaimed.FROM_START;
    private volatile ScheduledFuture<?> leaseExtension;
    /** Whether this deliverer stopped: its lease timer then runs only until the deliveries left unsettled are. */
    private volatile boolean stopped;
    /**
     * Gives back the endpoint's connection (client and lease timer) that a stop leaving deliveries unsettled kept for
     * them, once the last of them settled: the endpoint itself may stop meanwhile (its route removed).
     */
    private volatile Runnable connectionKept;
    private final AtomicBoolean leftGroup = new AtomicBoolean();
    /** Where {@link #handBacks} listens from {@link #start} to {@link #stop}: the endpoint may let go of it first. */
    private volatile WakeChannels handBackChannels;
    /**
     * Hears that another consumer handed messages back (it stopped or was suspended): the next fetch looks for expired
     * leases, which takes handed-back messages over first, instead of at the next periodic look, up to half a
     * visibility timeout later.
     */
    private final WakeListener handBacks = new WakeListener() {
        @Override
        public void messagesHandedBack() {
            nextReclaimNanos.set(System.nanoTime());
        }

        @Override
        public void subscribed() {
            // a notice lost while the subscription was down leaves the messages to the next periodic look
        }
    };
    /** A retry of the settlements Redis refused is under way ({@link #retrySettlements}). */
    private final AtomicBoolean retryingSettlements = new AtomicBoolean();
    /** Reads and hand-backs whose reply never came, and the hand-back of what they left with this consumer. */
    private final LostReads lostReads;

    /**
     * @param forRoute {@code true} for a route's consumer, which keeps fetching: finished messages are acknowledged
     *                 with its next {@link #fetch}, in the same round trip, and the leases of fetched messages are kept
     *                 alive from the fetch; {@code false} for a {@code ConsumerTemplate}'s or {@code pollEnrich}'s,
     *                 whose messages are acknowledged each at once, and whose leases are kept alive only when the taker
     *                 routes them ({@link #keepLease})
     */
    Deliverer(RedisDelayEndpoint endpoint, QueueShard shard, boolean forRoute) {
        this.endpoint = endpoint;
        this.queue = shard;
        this.forRoute = forRoute;
        this.consumerName = ConsumerNames.unique(endpoint.getConfiguration().getVisibilityTimeout());
        this.leases = new LeaseKeeper(queue, consumerName);
        AbandonedLeases abandonedLeases = new AbandonedLeases();
        AckBuffer ackBuffer = forRoute ? new AckBuffer() : null;
        RetryPolicy retryPolicy = new RetryPolicy(endpoint.retryDelays(), endpoint.getConfiguration().getMaxDeliveries());
        this.settlement = new Settlement(
                queue, consumerName, retryPolicy, new DeadLetters(queue, endpoint.deadLetterQueue()), leases,
                abandonedLeases, ackBuffer, endpoint.statistics());
        this.acks = new Acknowledgements(queue, ackBuffer, settlement);
        this.lostReads = new LostReads(
                queue, consumerName, leases, abandonedLeases, ResponseTimeout.of(endpoint.client()),
                () -> nextReclaimNanos.set(System.nanoTime()));
    }

    /** The wake channel of this deliverer's shard, which announces ready messages. */
    String wakeChannel() {
        return queue.keys().wake();
    }

    /**
     * Acknowledges the messages finished since the last call and fetches up to {@code count} messages: those whose
     * lease expired (looked for every half visibility timeout, and with each fetch until a look has covered the whole
     * pending list), else new ones, waiting up to {@code block} for them ({@code null}: no wait). Once Redis answers a
     * fetch sent after a lost read, a route's consumer hands back what that read left with it ({@link LostReads}).
     */
    List<Delivery> fetch(int count, Duration block) {
        return lostReads.fetch(forRoute && leaseExtension != null, () -> fetchNow(count, block));
    }

    private List<Delivery> fetchNow(int count, Duration block) {
        List<Delivery> finished = acks.drain();
        try {
            boolean reclaim = reclaimIsDue();
            if (reclaim || acks.isRefused()) {
                // after a refused acknowledgement, no read until it goes through: what a read brought could not be
                // acknowledged either
                acks.send(finished);
                finished = List.of();
            }
            if (reclaim) {
                Reclaimed look = queue.group().reclaim(consumerName, endpoint.getConfiguration().getVisibilityTimeout(),
                        count, reclaimCursor);
                reclaimCursor = look.cursor();
                if (look.leftMore()) {
                    // the rest of the pending list, or of what was handed back, is looked at with the next fetch
                    nextReclaimNanos.set(System.nanoTime());
                }
                // leases of this consumer's own running exchanges that expired (Redis could not be reached to extend
                // them for longer than the visibility timeout): the claim renewed them, their exchanges go on, and the
                // delivery it counted is taken back
                Map<Boolean, List<Delivery>> keptHere = look.deliveries().stream()
                        .collect(Collectors.partitioningBy(taken -> leases.keeps(taken.entryId())));
                List<Delivery> reclaimed = keptHere.get(false);
                uncountOwnTakeOvers(keptHere.get(true));
                int expired = look.expired() - keptHere.get(true).size();
                if (expired > 0) {
                    LOG.info("Took over {} messages of queue {} whose lease expired", expired, queue.name());
                    endpoint.statistics().events().reclaimed(expired);
                }
                if (look.handedBack() > 0) {
                    LOG.debug("Took over {} messages of queue {} that a stopping or suspended consumer handed back",
                            look.handedBack(), queue.name());
                }
                if (!reclaimed.isEmpty()) {
                    return leased(reclaimed);
                }
            }
            if (finished.isEmpty() && block != null) {
                // nothing to acknowledge: one read that blocks, which returns at once when messages are there
                return leased(queue.group().readNew(consumerName, count, block));
            }
            ConsumerGroup.AckAndRead done = queue.group().ackAndReadNew(consumerName, count, finished);
            if (done.ackFailure() != null) {
                if (done.read().isEmpty()) {
                    throw done.ackFailure();
                }
                // what was read is this consumer's now: to the route with it, and the acknowledgement tried again,
                // alone, with the next fetch
                acks.refusedBesideRead(finished, done.ackFailure());
                return leased(done.read());
            }
            acks.sent(finished);
            finished = List.of();
            List<Delivery> fresh = done.read();
            return leased(fresh.isEmpty() && block != null ? queue.group().readNew(consumerName, count, block) : fresh);
        } catch (RuntimeException e) {
            // not acknowledged: try again with the next fetch
            acks.putBack(finished);
            throw e;
        }
    }

    /**
     * Takes back the delivery that a look for expired leases counted for each of these messages, whose exchanges this
     * consumer still runs: else, should it die before they settle, the next consumer would count one delivery more than
     * there was. Failing that (Redis unreachable again), they stay counted.
     */
    private void uncountOwnTakeOvers(List<Delivery> ownRunning) {
        if (ownRunning.isEmpty()) {
            return;
        }
        try {
            queue.group().uncountOwnTakeOvers(consumerName, ownRunning);
        } catch (RuntimeException e) {
            LOG.debug("Consumer {} could not take back the delivery counted by taking over the expired leases of {} of its "
                      + "running exchanges on queue {}: {}",
                    consumerName, ownRunning.size(), queue.name(), e.toString());
        }
    }

    /** The acknowledgements of what finished, which a consumer flushes between its reads. */
    Acknowledgements acknowledgements() {
        return acks;
    }

    /**
     * Keeps the leases of a fetched batch alive from the moment it is fetched, while its messages wait for their turn,
     * when a route's consumer fetched it and extends leases at all. A message a {@code ConsumerTemplate} takes is held
     * by its caller, who may never be done with it: its lease expires unless {@link #keepLease} says a route runs it.
     */
    private List<Delivery> leased(List<Delivery> batch) {
        if (forRoute && leaseExtension != null) {
            batch.forEach(leases::started);
        }
        return batch;
    }

    private boolean reclaimIsDue() {
        long visibility = endpoint.getConfiguration().getVisibilityTimeout();
        long now = System.nanoTime();
        long due = nextReclaimNanos.get();
        return now - due >= 0
                && nextReclaimNanos.compareAndSet(due, now + TimeUnit.MILLISECONDS.toNanos(Math.max(100, visibility / 2)));
    }

    /**
     * A fetched batch for a consumer thread to route one message after another. Its leases are kept alive while it
     * waits, but not for ever: what is still waiting a visibility timeout after the read (behind an exchange that hangs
     * or runs long) is handed back by the lease timer, uncounted, for an idle consumer (or this one's next read) to
     * take at once.
     *
     * @param restTaken told how many messages of the batch were taken to be handed back, by whichever thread took them
     */
    FetchedBatch inTurn(List<Delivery> batch, IntConsumer restTaken) {
        // looked at by the lease timer until every message of it was taken, no longer: it holds their envelopes
        FetchedBatch fetched = new FetchedBatch(batch, restTaken, batchesInTurn::remove);
        if (leaseExtension != null && batch.size() > 1) {
            batchesInTurn.add(fetched);
        }
        return fetched;
    }

    /** Hands back, off the lease timer, the rests of batches that waited a visibility timeout since their read. */
    private void handBackWaitedRests() {
        long readBefore = System.nanoTime()
                          - TimeUnit.MILLISECONDS.toNanos(endpoint.getConfiguration().getVisibilityTimeout());
        for (FetchedBatch batch : batchesInTurn) {
            if (batch.fetchedBefore(readBefore)) {
                // leaves batchesInTurn with it
                List<Delivery> rest = batch.takeRest();
                if (!rest.isEmpty()) {
                    LOG.debug("Consumer {} hands back {} messages of queue {} that waited a visibility timeout behind "
                              + "a slow exchange of their batch",
                            consumerName, rest.size(), queue.name());
                    endpoint.getComponent().runInBackground(() -> handBack(rest));
                }
            }
        }
    }

    /**
     * Keeps the lease of a message taken for a route ({@code pollEnrich}'s) alive until it is settled, as a route's
     * consumer keeps those of the exchanges it routes.
     */
    void keepLease(Delivery delivery) {
        if (leaseExtension != null) {
            settlement.keepLease(delivery);
        }
    }

    /**
     * Fills an exchange from a delivery and makes its completion settle the message.
     *
     * @param  routedHere whether {@link #deliver} or {@link #deliverAsync} routes it, and so tells the completion when
     *                    the exchange is done; {@code false} for a message a {@code ConsumerTemplate} takes
     * @return            the completion, or {@code null} when the delivery does not go to the route
     *                    ({@link Settlement#admit}), its stored message cannot be read (it was sent to the dead-letter
     *                    queue), or filling the exchange failed otherwise (settled as a failed delivery)
     */
    DeliveryCompletion prepare(Delivery delivery, Exchange exchange, boolean routedHere) {
        if (!settlement.admit(delivery)) {
            return null;
        }
        try {
            endpoint.messageMapper().populate(exchange, delivery, queue.name());
        } catch (CorruptEnvelopeException e) {
            settlement.rejected(delivery, "unreadable message: " + e.getMessage());
            return null;
        } catch (RuntimeException | Error e) {
            // the user's header filter strategy, say (whatever it throws, IllegalArgumentException too, or an Error such
            // as NoClassDefFoundError, which must not end the consumer's thread): a failed delivery, retried or
            // dead-lettered as any other
            settlement.failed(delivery, e);
            return null;
        }
        DeliveredMessage.mark(exchange, queue, delivery.messageId());
        endpoint.statistics().delivered(delivery.dueAt());
        DeliveryCompletion completion = new DeliveryCompletion(
                delivery, settlement,
                leaseExtension != null ? droppedCopies : null, routedHere);
        exchange.getExchangeExtension().addOnCompletion(completion);
        return completion;
    }

    /**
     * Routes a fetched delivery through a consumer's processor and waits until its exchange is done, with the
     * delivery's MDC keys on this thread ({@link DeliveryMdc}); its lease is kept alive until then.
     */
    void deliver(Delivery delivery, DefaultConsumer consumer) {
        Exchange exchange = consumer.createExchange(false);
        try (DeliveryMdc mdc = DeliveryMdc.open(exchange.getContext(), delivery.messageId(), queue.name())) {
            // with the keys: what prepare logs when the message does not go to the route (dead-lettered before it)
            DeliveryCompletion completion = prepare(delivery, exchange, true);
            if (completion == null) {
                consumer.releaseExchange(exchange, false);
                return;
            }
            try {
                consumer.getProcessor().process(exchange);
            } catch (Exception | Error e) {
                // an Error too (a poison message's StackOverflowError, say): it must not end the reader thread
                routingFailed(delivery, exchange, consumer, e);
            } finally {
                ended(completion, exchange, consumer);
            }
        }
        clearStrayInterrupt(consumer);
        // slow exchanges: do not let finished messages wait for the whole batch, a crash would repeat them; unless
        // Redis refuses acknowledgements, when trying here would hold up the rest of the batch (the next fetch tries)
        if (!acks.isRefused()) {
            acks.flushOverdue();
        }
    }

    /**
     * Hands a fetched delivery to Camel's asynchronous routing engine without waiting for its exchange, with the
     * delivery's MDC keys on this thread while it routes here; {@code done} runs once the exchange is done (at once
     * when the delivery does not go to the route), on whichever thread ends it. Its lease is kept alive until then.
     */
    void deliverAsync(Delivery delivery, DefaultConsumer consumer, Runnable done) {
        Exchange exchange = consumer.createExchange(false);
        try (DeliveryMdc mdc = DeliveryMdc.open(exchange.getContext(), delivery.messageId(), queue.name())) {
            // with the keys: what prepare logs when the message does not go to the route (dead-lettered before it)
            DeliveryCompletion completion = prepare(delivery, exchange, true);
            if (completion != null) {
                route(delivery, exchange, consumer, completion, done);
                clearStrayInterrupt(consumer);
                return;
            }
        }
        consumer.releaseExchange(exchange, false);
        done.run();
    }

    /**
     * Clears an interrupt that the route left on the consumer's thread while it routed here (code that catches an
     * {@link InterruptedException} and sets the flag again, say), while the consumer runs: left set, it would fail the
     * next message of the batch, routed on this thread, and the next read. A stop's interrupt comes once the consumer
     * is stopping, and is left alone.
     */
    private void clearStrayInterrupt(DefaultConsumer consumer) {
        if (consumer.isRunAllowed() && Thread.interrupted()) {
            strayInterruptCleared();
        }
    }

    /**
     * A route left the consumer's thread interrupted, or something else interrupted it while the consumer runs, and the
     * consumer cleared the flag: reported once per deliverer.
     */
    void strayInterruptCleared() {
        if (!strayInterruptReported) {
            strayInterruptReported = true;
            LOG.warn("Consumer thread {} of queue {} was interrupted while the consumer runs (a route left the flag set, "
                     + "or an interrupt came from elsewhere); the consumer cleared the flag and goes on (reported once)",
                    Thread.currentThread().getName(), queue.name());
        }
    }

    /** Hands a prepared exchange to the asynchronous routing engine; {@code done} runs once it is done. */
    private void route(
            Delivery delivery, Exchange exchange, DefaultConsumer consumer, DeliveryCompletion completion,
            Runnable done) {
        AtomicBoolean over = new AtomicBoolean();
        Runnable end = () -> {
            if (over.compareAndSet(false, true)) {
                ended(completion, exchange, consumer);
                done.run();
            }
        };
        RoutingEnd.attach(exchange, end);
        try {
            consumer.getAsyncProcessor().process(exchange, doneSync -> end.run());
        } catch (Exception | Error e) {
            // thrown out of the routing engine, so its callback never runs: the exchange ends here
            routingFailed(delivery, exchange, consumer, e);
            end.run();
        }
    }

    /**
     * Reports what routing threw past Camel's error handling, marks the exchange failed (an {@code Error} also when it
     * would end successfully: {@link FailureAtEnd}) and ends it ({@link OpenUnitOfWork#endAfterThrow}: Camel's
     * after-steps it left queued on this thread, then what stays open), which settles it as the message's failure. Not
     * through the bridge to the route's error handler ({@code bridgeErrorHandler}), which is for failures before a
     * message exists: it would route the delivered exchange again, with this text as its body. A handler that fails is
     * logged ({@link ExceptionHandlerCall}): the exchange is settled and the consumer goes on.
     */
    private void routingFailed(Delivery delivery, Exchange exchange, DefaultConsumer consumer, Throwable e) {
        // not once Camel ended it: its completions ran already
        if (e instanceof Error error && OpenUnitOfWork.isOpen(exchange)) {
            FailureAtEnd.failWith(exchange, error);
        } else {
            exchange.setException(e);
        }
        ExceptionHandler handler = consumer.getExceptionHandler();
        if (handler instanceof BridgeExceptionHandlerToErrorHandler) {
            handler = new LoggingExceptionHandler(consumer.getEndpoint().getCamelContext(), consumer.getClass());
        }
        ExceptionHandlerCall.handle(handler, queue.name(),
                "Error processing message " + LogText.of(delivery.messageId()) + " of queue " + queue.name(), exchange,
                e);
        OpenUnitOfWork.endAfterThrow(exchange);
    }

    /** Settles what the exchange left unsettled, and gives the exchange back. */
    private void ended(DeliveryCompletion completion, Exchange exchange, DefaultConsumer consumer) {
        completion.exchangeDone(exchange);
        consumer.releaseExchange(exchange, false);
    }

    /**
     * Starts extending the leases of fetched messages every third of the visibility timeout, on {@code leaseTimer}.
     */
    void start(ScheduledExecutorService leaseTimer) {
        long period = leaseRoundMillis();
        leaseExtension = leaseTimer.scheduleAtFixedRate(this::keepLeases, period, period, TimeUnit.MILLISECONDS);
        WakeChannels wake = endpoint.wakeChannels();
        wake.listen(wakeChannel(), handBacks);
        handBackChannels = wake;
    }

    /** The period of the lease timer's rounds: a third of the visibility timeout. */
    private long leaseRoundMillis() {
        return Math.max(50, endpoint.getConfiguration().getVisibilityTimeout() / 3);
    }

    /**
     * One round of the lease timer: settles the deliveries whose copy was dropped, tries again the settlements Redis
     * refused, hands back the rests of batches that waited too long ({@link #inTurn}), and extends the leases of the
     * others; once this deliverer stopped and the last of them settled, leaves the consumer group instead. Never waits
     * for Redis: the timer thread serves every consumer of the connection.
     */
    private void keepLeases() {
        droppedCopies.abandonDropped();
        if (stopped && leases.size() == 0) {
            leaveGroup();
            return;
        }
        retrySettlements();
        handBackWaitedRests();
        leases.extend();
    }

    /**
     * Sends, off the lease timer and one attempt at a time, what Redis refused or was out of reach for: the settlements
     * of failed deliveries, and the acknowledgements a stop could not send (no read of this deliverer will carry them
     * any more); and the acknowledgements that waited a whole round of the lease timer while an exchange of their batch
     * runs long (the reader thread sends them only after it). Their leases are kept until they are sent.
     */
    private void retrySettlements() {
        boolean acksLeft = stopped
                ? acks.anyWaiting()
                : acks.waitedLongerThan(TimeUnit.MILLISECONDS.toNanos(leaseRoundMillis())) && !acks.isRefused();
        if ((acksLeft || settlement.hasUnsettledFailures()) && retryingSettlements.compareAndSet(false, true)) {
            endpoint.getComponent().runInBackground(() -> {
                try {
                    if (acksLeft) {
                        acks.flush();
                    }
                    settlement.settleFailuresAgain();
                } finally {
                    retryingSettlements.set(false);
                }
            });
        }
    }

    /**
     * Hands back fetched deliveries that a stop or a suspension keeps from being routed: taken over at once by the next
     * consumer to look for expired leases, without counting this delivery. Failing that (Redis unreachable, or holding
     * the call for longer than the client waits), the look after this consumer's next answered read hands them back
     * ({@link LostReads}); a consumer that reads no more (stopped) leaves them to their lease, as delivered.
     */
    void handBack(List<Delivery> unrouted) {
        if (unrouted.isEmpty()) {
            return;
        }
        // no longer extended first, so that no extension renews the lease handed back
        unrouted.forEach(settlement::handedBack);
        // this consumer's next fetch, if any (after a resume), looks for expired leases: it takes them back at once
        nextReclaimNanos.set(System.nanoTime());
        try {
            queue.group().handBack(consumerName, unrouted);
        } catch (RuntimeException e) {
            lostReads.handBackFailed();
            LOG.debug("Consumer {} could not hand back {} unrouted messages of queue {}; its next read hands them back, or "
                      + "they are delivered again after the visibility timeout: {}",
                    consumerName, unrouted.size(), queue.name(), e.toString());
            return;
        }
        if (leftGroup.get()) {
            // a read that Redis ran after this consumer left the group (it held the read) added it back: it leaves
            // again, holding nothing now
            retire();
        }
    }

    /**
     * Acknowledges what finished, stops extending leases and leaves the consumer group unless this consumer still holds
     * messages. Deliveries the stop left unsettled (a copy handed to another route that runs on, an exchange deaf to
     * the stop's interrupt) keep their leases until they settle, so that no other consumer takes them over while they
     * run, and keep the endpoint's connection for that, also when the endpoint stops (its route removed); the lease
     * timer then leaves the group and gives the connection back.
     * <p>
     * With {@code unreachable} (the consumer's last read failed, or Redis left one unanswered), or once a consumer of
     * the connection found Redis silent at its stop ({@link SilentRedis}), the stop waits for Redis neither to
     * acknowledge what finished nor to answer its leaving the group: the client tries such a call again for as long as
     * its retries last (several seconds with Redisson's defaults, as an application's client bean often has them), and
     * consumers stop one after another, so each queue would add that to the stop. The acknowledgements are left to the
     * lease timer, as after a stop whose acknowledgement failed (their leases kept meanwhile, what is not acknowledged
     * delivered again); the call to leave is made on another thread (a client that never connected makes its first
     * connection within the call, as long as its connect timeout), and a consumer that could not leave stays listed in
     * the group, holding nothing, as when leaving fails. Otherwise the stop waits for leaving at most
     * {@value #LEAVE_WAIT_MS} ms, which only a Redis that stopped answering meanwhile (a paused server) takes: the call
     * goes on. While the whole CamelContext stops, no consumer waits for Redis at its stop: the component waits for the
     * departures of all its consumers at once ({@link #departWithoutWaiting}).
     */
    void stop(boolean unreachable) {
        // a consumer of the connection that stopped before found Redis silent: not waited for again
        boolean redisUnreachable = unreachable || endpoint.silence().isSilent();
        WakeChannels wake = handBackChannels;
        if (wake != null) {
            wake.stopListening(wakeChannel(), handBacks);
        }
        acks.close();
        if (!redisUnreachable && endpoint.getCamelContext().isStopping()) {
            departWithoutWaiting();
            return;
        }
        if (!redisUnreachable) {
            acks.flush();
        }
        if (leaseExtension != null && leases.size() > 0) {
            connectionKept = endpoint.keepConnection();
        }
        stopped = true;
        if (leaseExtension == null || leases.size() == 0) {
            if (redisUnreachable) {
                endpoint.getComponent().runInBackground(this::leaveGroup);
                return;
            }
            try {
                leaveGroup().toCompletableFuture().get(LEAVE_WAIT_MS, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                endpoint.silence().waitedInVain();
                LOG.debug("Consumer {} stops without waiting longer than {} ms for leaving the group of queue {}",
                        consumerName, LEAVE_WAIT_MS, queue.name());
            } catch (ExecutionException e) {
                // logged by leaveGroup
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * The stop of a consumer whose CamelContext stops: sends the acknowledgements of what finished and then leaves the
     * consumer group (unless it still holds messages), without waiting for Redis; the component waits for the
     * departures of all its consumers once ({@link Departures}). The connection is kept until this consumer has left.
     */
    private void departWithoutWaiting() {
        List<Delivery> finished = acks.drain();
        connectionKept = endpoint.keepConnection();
        stopped = true;
        endpoint.getComponent().departures().add(acks.sendAsync(finished).thenCompose(
                done -> leaseExtension == null || leases.size() == 0 ? leaveGroup() : CompletableFuture.completedFuture(null)));
    }

    /** Leaves the consumer group unless this consumer holds messages ({@code retire.lua}); a failure is logged. */
    private CompletionStage<?> retire() {
        CompletionStage<?> retired;
        try {
            retired = queue.group().retire(consumerName);
        } catch (RuntimeException e) {
            retired = CompletableFuture.failedFuture(e);
        }
        return retired.whenComplete((done, failure) -> {
            if (failure != null) {
                LOG.debug("Consumer {} could not leave the group of queue {}: {}", consumerName, queue.name(),
                        Futures.unwrap(failure).toString());
            }
        });
    }

    /** Stops extending leases and leaves the consumer group unless this consumer still holds messages; once. */
    private CompletionStage<?> leaveGroup() {
        if (!leftGroup.compareAndSet(false, true)) {
            return CompletableFuture.completedFuture(null);
        }
        ScheduledFuture<?> extension = leaseExtension;
        if (extension != null) {
            extension.cancel(false);
        }
        return retire().whenComplete((done, failure) -> {
            Runnable kept = connectionKept;
            if (kept != null) {
                // off Redisson's I/O thread and the lease timer, which giving the connection back may shut down
                endpoint.getComponent().runInBackground(kept);
            }
        });
    }
}
