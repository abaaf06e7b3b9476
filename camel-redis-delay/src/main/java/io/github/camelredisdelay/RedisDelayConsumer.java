package io.github.camelredisdelay;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.github.camelredisdelay.internal.Backoff;
import io.github.camelredisdelay.internal.ConsumerNames;
import io.github.camelredisdelay.internal.DeadLetters;
import io.github.camelredisdelay.internal.Delivery;
import io.github.camelredisdelay.internal.LeaseKeeper;
import io.github.camelredisdelay.internal.OutageLog;
import io.github.camelredisdelay.internal.RedisQueue;
import io.github.camelredisdelay.internal.RetryPolicy;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.apache.camel.ShutdownRunningTask;
import org.apache.camel.spi.ShutdownAware;
import org.apache.camel.support.DefaultConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers due messages of a queue with {@code concurrentConsumers} long-polling threads that read the ready stream
 * through the queue's consumer group, so each message goes to one consumer of all nodes. It also takes over
 * messages whose lease expired (their consumer died) and extends the leases of its own running exchanges.
 * <p>
 * On graceful shutdown it stops fetching, finishes and settles what it has fetched; anything unfinished stays
 * leased in Redis and is delivered again after {@code visibilityTimeout}.
 */
public class RedisDelayConsumer extends DefaultConsumer implements ShutdownAware {

    private static final Logger LOG = LoggerFactory.getLogger(RedisDelayConsumer.class);
    /** Longest wait of one read; bounds how long a stopping consumer waits for its threads. */
    private static final Duration BLOCK = Duration.ofSeconds(1);

    private final RedisDelayEndpoint endpoint;
    private final String consumerName = ConsumerNames.unique();
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicLong nextReclaimNanos = new AtomicLong();
    private final OutageLog outage;
    private final Backoff backoff = new Backoff(100, 5000);

    private volatile boolean fetching;
    private RedisQueue queue;
    private LeaseKeeper leases;
    private RetryPolicy retryPolicy;
    private DeadLetters deadLetters;
    private ExecutorService readers;
    private ScheduledExecutorService leaseTimer;

    public RedisDelayConsumer(RedisDelayEndpoint endpoint, Processor processor) {
        super(endpoint, processor);
        this.endpoint = endpoint;
        this.outage = new OutageLog(LOG, "Consumer of queue " + endpoint.getQueueName());
    }

    @Override
    public RedisDelayEndpoint getEndpoint() {
        return endpoint;
    }

    /** This consumer's name in the queue's consumer group. */
    public String getConsumerName() {
        return consumerName;
    }

    @Override
    protected void doStart() throws Exception {
        super.doStart();
        RedisDelayConfiguration options = endpoint.getConfiguration();
        queue = endpoint.queue();
        leases = new LeaseKeeper(queue, consumerName);
        retryPolicy = new RetryPolicy(endpoint.retryDelays(), options.getMaxDeliveries());
        deadLetters = new DeadLetters(queue, endpoint.deadLetterQueue());
        nextReclaimNanos.set(System.nanoTime());
        fetching = true;

        var executors = getEndpoint().getCamelContext().getExecutorServiceManager();
        long leasePeriod = Math.max(50, options.getVisibilityTimeout() / 3);
        leaseTimer = executors.newSingleThreadScheduledExecutor(this, "RedisDelayLeases[" + queue.name() + "]");
        leaseTimer.scheduleAtFixedRate(leases::extend, leasePeriod, leasePeriod, TimeUnit.MILLISECONDS);
        readers = executors.newFixedThreadPool(this, "RedisDelayConsumer[" + queue.name() + "]",
                options.getConcurrentConsumers());
        for (int i = 0; i < options.getConcurrentConsumers(); i++) {
            readers.execute(this::fetchLoop);
        }
    }

    @Override
    protected void doStop() throws Exception {
        fetching = false;
        var executors = getEndpoint().getCamelContext().getExecutorServiceManager();
        if (readers != null) {
            executors.shutdownGraceful(readers);
            readers = null;
        }
        if (leaseTimer != null) {
            executors.shutdownNow(leaseTimer);
            leaseTimer = null;
        }
        super.doStop();
    }

    private void fetchLoop() {
        while (fetching && isRunAllowed()) {
            if (isSuspendingOrSuspended()) {
                pause(BLOCK.toMillis());
                continue;
            }
            List<Delivery> batch;
            try {
                batch = fetch();
                outage.succeeded();
                backoff.reset();
            } catch (RuntimeException e) {
                if (!fetching) {
                    break;
                }
                outage.failed(e);
                pause(backoff.next());
                continue;
            }
            pending.addAndGet(batch.size());
            for (Delivery delivery : batch) {
                try {
                    deliver(delivery);
                } finally {
                    pending.decrementAndGet();
                }
            }
        }
    }

    /**
     * Expired leases first (checked every half visibility timeout by one of the threads), then new messages.
     */
    private List<Delivery> fetch() {
        RedisDelayConfiguration options = endpoint.getConfiguration();
        long now = System.nanoTime();
        long due = nextReclaimNanos.get();
        if (now - due >= 0 && nextReclaimNanos.compareAndSet(due,
                now + TimeUnit.MILLISECONDS.toNanos(Math.max(100, options.getVisibilityTimeout() / 2)))) {
            List<Delivery> reclaimed = queue.reclaim(consumerName, options.getVisibilityTimeout(), options.getMaxMessagesPerPoll());
            if (!reclaimed.isEmpty()) {
                LOG.info("Took over {} messages of queue {} whose lease expired", reclaimed.size(), queue.name());
                return reclaimed;
            }
        }
        return queue.readNew(consumerName, options.getMaxMessagesPerPoll(), BLOCK);
    }

    private void deliver(Delivery delivery) {
        DeliveryCompletion completion = new DeliveryCompletion(delivery, queue, retryPolicy, deadLetters);
        if (delivery.problem() != null) {
            deadLetterUnreadable(completion, delivery.problem());
            return;
        }
        Exchange exchange = createExchange(false);
        try {
            endpoint.messageMapper().populate(exchange, delivery, queue.name());
        } catch (IllegalArgumentException e) {
            releaseExchange(exchange, false);
            deadLetterUnreadable(completion, "unreadable message: " + e.getMessage());
            return;
        }
        exchange.getExchangeExtension().addOnCompletion(completion);
        leases.started(delivery);
        try {
            getProcessor().process(exchange);
        } catch (Exception e) {
            getExceptionHandler().handleException("Error processing message " + delivery.messageId() + " of queue "
                                                  + queue.name(), exchange, e);
        } finally {
            leases.finished(delivery);
            releaseExchange(exchange, false);
        }
    }

    private void deadLetterUnreadable(DeliveryCompletion completion, String problem) {
        try {
            completion.deadLetter(problem);
        } catch (RuntimeException e) {
            LOG.warn("Could not dead-letter an unreadable message of queue {}; trying again after the visibility timeout: {}",
                    queue.name(), e.toString());
        }
    }

    private void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fetching = false;
        }
    }

    @Override
    public boolean deferShutdown(ShutdownRunningTask shutdownRunningTask) {
        return false;
    }

    @Override
    public int getPendingExchangesSize() {
        return pending.get();
    }

    @Override
    public void prepareShutdown(boolean suspendOnly, boolean forced) {
        if (!suspendOnly) {
            fetching = false;
        }
    }
}
