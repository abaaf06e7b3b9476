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
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.camelredisdelay.internal.Delivery;
import org.apache.camel.Processor;
import org.apache.camel.ShutdownRunningTask;
import org.apache.camel.spi.ShutdownAware;
import org.apache.camel.support.ScheduledPollConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The route consumer of {@code consumerType=polling}, a Camel {@code ScheduledPollConsumer} (not to be confused with
 * {@link RedisDelayPollingConsumer}, which serves {@code ConsumerTemplate}): every {@code pollInterval} it fetches up
 * to {@code maxMessagesPerPoll} due messages from each shard of the queue and routes them; after a poll that found
 * messages it polls again at once, so a backlog drains without waiting an interval between batches. A fetch Redis fails
 * is reported as by the blocking consumer ({@link FetchFailures}), other poll errors go through Camel's usual poll
 * strategy. Messages are settled exactly as by the blocking consumer. With {@code asyncConsumer} a poll hands its
 * messages to Camel's asynchronous routing engine together and waits until all are done before the next poll.
 * <p>
 * A poll under way is work in flight for Camel's shutdown strategy, its read included: a graceful stop waits for it
 * rather than interrupting its read, whose batch Redis would then hold pending for this consumer until the lease runs
 * out; what a stopping consumer no longer routes is handed back, as is the rest of a poll's batch when the shutdown
 * strategy stops or suspends a route that completes only its current task (Camel's default).
 */
public class RedisDelayScheduledPollConsumer extends ScheduledPollConsumer implements ShutdownAware {

    private static final Logger LOG = LoggerFactory.getLogger(RedisDelayScheduledPollConsumer.class);
    /** How soon a finished message is acknowledged at the latest, as a blocking consumer's next read does. */
    static final long ACKNOWLEDGED_WITHIN_MS = 1000;

    private final RedisDelayEndpoint endpoint;
    private final FetchFailures fetchFailures;
    private final StopWait stopWait;
    private ShardDeliverers deliverers;
    private LegacyMigration migration;
    /** Polls under way (reading, or routing what they read), and acknowledgements sent while suspended. */
    private final AtomicInteger pollsUnderWay = new AtomicInteger();

    public RedisDelayScheduledPollConsumer(RedisDelayEndpoint endpoint, Processor processor) {
        super(endpoint, processor);
        this.endpoint = endpoint;
        this.fetchFailures = new FetchFailures(endpoint, LOG);
        this.stopWait = new StopWait(endpoint.getCamelContext(), fetchFailures);
        setDelay(endpoint.getConfiguration().getPollInterval());
        setInitialDelay(0);
        setGreedy(true);
    }

    @Override
    public RedisDelayEndpoint getEndpoint() {
        return endpoint;
    }

    @Override
    protected void doStart() throws Exception {
        int concurrentConsumers = endpoint.getConfiguration().getConcurrentConsumers();
        if (concurrentConsumers > 1) {
            LOG.warn("The consumer of queue {} ignores concurrentConsumers={}: with consumerType=polling it polls on one "
                     + "thread. Use consumerType=blocking for {} consumer threads, or asyncConsumer=true to route each "
                     + "poll's messages together",
                    endpoint.getQueueName(), concurrentConsumers, concurrentConsumers);
        }
        deliverers = new ShardDeliverers(endpoint, true);
        deliverers.start(this, fetchFailures);
        stopWait.running();
        super.doStart();
        migration = LegacyMigration.startFor(endpoint, this);
    }

    @Override
    protected void doStop() throws Exception {
        if (migration != null) {
            migration.stop();
            migration = null;
        }
        // a poll under way reads its batch and, this consumer stopping, hands it back: stopping the scheduler would
        // interrupt the read and leave the batch pending until its lease runs out
        stopWait.forWorkUnderWay(pollsUnderWay::get);
        super.doStop();
        if (deliverers != null) {
            // while Redis is unreachable, leaving the consumer group is not waited for
            deliverers.stop(fetchFailures.isDown());
        }
    }

    /**
     * While this consumer is suspended (a route policy, say) Camel's scheduler still runs but does not poll: what
     * finished before is acknowledged here instead, as by the blocking consumer, rather than left in flight until the
     * resume.
     */
    @Override
    public void run() {
        ShardDeliverers suspendedDeliverers = isSuspended() ? deliverers : null;
        if (suspendedDeliverers != null) {
            // work under way, like a poll: a stop waits for it rather than interrupting its call
            pollsUnderWay.incrementAndGet();
            try {
                suspendedDeliverers.all().forEach(deliverer -> deliverer.acknowledgements().flushOverdue());
            } finally {
                pollsUnderWay.decrementAndGet();
            }
        }
        super.run();
    }

    /**
     * Fetches and routes each shard's messages. A failed fetch is logged once per outage (and handed to the route's
     * error handler as often, with {@code bridgeErrorHandler}), as by the blocking consumer, rather than by Camel's
     * poll strategy with each poll; the shards after it are read all the same, so that a shard whose master failed or
     * does not answer holds back the others' messages by its read's timeout, not for as long as it fails. Nothing is
     * fetched while the endpoint's {@code shards} differs from its queue's, and no further shard once the consumer is
     * suspended (a stop suspends it first); a read under way when that happens brings its batch, which is routed unless
     * the route completes only its current task (then it goes back).
     */
    @Override
    protected int poll() throws InterruptedException {
        pollsUnderWay.incrementAndGet();
        try {
            // a suspension (a stop's first step) that counted the polls under way before this one began does not
            // wait for it, so it must not read
            if (isSuspendingOrSuspended() || !isRunAllowed()) {
                return 0;
            }
            if (!acknowledgesBetweenPolls()) {
                return fetchAndRoute();
            }
            deliverers.all().forEach(deliverer -> deliverer.acknowledgements().pollBegins());
            try {
                return fetchAndRoute();
            } finally {
                deliverers.all().forEach(deliverer -> deliverer.acknowledgements().pollEnded());
            }
        } finally {
            pollsUnderWay.decrementAndGet();
        }
    }

    /**
     * Whether what finishes is acknowledged when a poll ends and between polls: with a {@code pollInterval} longer than
     * {@value #ACKNOWLEDGED_WITHIN_MS} ms; with a shorter one the next poll's read carries the acknowledgements, in the
     * same round trip, as soon as a blocking consumer's would.
     */
    private boolean acknowledgesBetweenPolls() {
        return endpoint.getConfiguration().getPollInterval() > ACKNOWLEDGED_WITHIN_MS;
    }

    private int fetchAndRoute() throws InterruptedException {
        if (!endpoint.readsAllowed()) {
            // while the shard counts differ (logged, health DOWN): no read, but what finished is acknowledged
            deliverers.all().forEach(deliverer -> deliverer.acknowledgements().flush());
            return 0;
        }
        int delivered = 0;
        // with asyncConsumer the messages of every shard are in flight together: the poll ends once all are done
        Semaphore asyncExchangesDone = new Semaphore(0);
        for (Deliverer deliverer : deliverers.all()) {
            if (isSuspendingOrSuspended()) {
                // an exchange of an earlier shard's batch suspended the consumer (a route policy, the route
                // controller), or a stop began, which suspends first: no further shard is read
                break;
            }
            List<Delivery> batch;
            try {
                batch = deliverer.fetch(endpoint.getConfiguration().getMaxMessagesPerPoll(), null);
                fetchFailures.succeeded();
            } catch (RuntimeException e) {
                if (!isRunAllowed()) {
                    // a stop that ran out of time and interrupted the read
                    break;
                }
                // the other shards are read still: on a cluster they may live on masters that answer
                fetchFailures.failed(e, getExceptionHandler());
                continue;
            }
            delivered += route(deliverer, batch, asyncExchangesDone);
            if (!isRunAllowed()) {
                break;
            }
        }
        if (endpoint.getConfiguration().isAsyncConsumer()) {
            asyncExchangesDone.acquire(delivered);
        }
        return delivered;
    }

    /**
     * Routes a shard's batch; with asyncConsumer all at once, each exchange releasing a permit of
     * {@code asyncExchangesDone} when it is done.
     */
    private int route(Deliverer deliverer, List<Delivery> batch, Semaphore asyncExchangesDone) {
        boolean async = endpoint.getConfiguration().isAsyncConsumer();
        // a poll under way is what this consumer counts as pending, not the messages of its batches
        FetchedBatch fetched = deliverer.inTurn(batch, handedBack -> {
        });
        int routed = 0;
        while (true) {
            if (!isRunAllowed() || !stopWait.routesRestOfBatch()) {
                // stopping, or the shutdown strategy stops or suspends a route that completes only its current
                // exchange: the rest goes back to the queue, its delivery uncounted
                deliverer.handBack(fetched.takeRest());
                break;
            }
            Delivery delivery = fetched.next();
            if (delivery == null) {
                break;
            }
            if (async) {
                deliverer.deliverAsync(delivery, this, asyncExchangesDone::release);
            } else {
                deliverer.deliver(delivery, this);
            }
            routed++;
        }
        return routed;
    }

    @Override
    protected void doResume() throws Exception {
        stopWait.running();
        super.doResume();
    }

    @Override
    public boolean deferShutdown(ShutdownRunningTask shutdownRunningTask) {
        stopWait.strategyBegins(shutdownRunningTask);
        return false;
    }

    @Override
    public int getPendingExchangesSize() {
        return pollsUnderWay.get();
    }

    @Override
    public void prepareShutdown(boolean suspendOnly, boolean forced) {
        // a poll under way sees the stop by itself (isRunAllowed)
        if (!suspendOnly) {
            stopWait.prepared(forced);
        }
    }

}
