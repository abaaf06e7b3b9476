package io.github.camelredisdelay;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.github.camelredisdelay.internal.ConsumerNames;
import io.github.camelredisdelay.internal.DeadLetters;
import io.github.camelredisdelay.internal.Delivery;
import io.github.camelredisdelay.internal.LeaseKeeper;
import io.github.camelredisdelay.internal.RedisQueue;
import io.github.camelredisdelay.internal.RetryPolicy;
import org.apache.camel.Exchange;
import org.apache.camel.support.DefaultConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every kind of consumer of a queue does with Redis: fetch messages (expired leases first, then new ones),
 * turn each into an exchange that settles it on completion, and keep the leases of running exchanges alive.
 * One instance per consumer and shard of the queue, with its own name in the shard's consumer group.
 */
final class Deliverer {

    private static final Logger LOG = LoggerFactory.getLogger(Deliverer.class);

    /** How long a finished message may wait for its acknowledgement to share a round trip with others. */
    private static final long ACK_LINGER_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private final RedisDelayEndpoint endpoint;
    private final RedisQueue queue;
    private final String consumerName = ConsumerNames.unique();
    private final LeaseKeeper leases;
    private final RetryPolicy retryPolicy;
    private final DeadLetters deadLetters;
    private final AtomicLong nextReclaimNanos = new AtomicLong(System.nanoTime());
    private ScheduledFuture<?> leaseExtension;
    private final boolean deferAcks;
    private final Queue<Delivery> finished = new ConcurrentLinkedQueue<>();
    private final AtomicLong oldestFinishedNanos = new AtomicLong();

    /**
     * @param deferAcks {@code true} to acknowledge finished messages with the next {@link #fetch}, in the same round
     *                  trip (for consumers that keep fetching); {@code false} to acknowledge each at once
     */
    Deliverer(RedisDelayEndpoint endpoint, RedisQueue shard, boolean deferAcks) {
        this.endpoint = endpoint;
        this.deferAcks = deferAcks;
        this.queue = shard;
        this.leases = new LeaseKeeper(queue, consumerName);
        this.retryPolicy = new RetryPolicy(endpoint.retryDelays(), endpoint.getConfiguration().getMaxDeliveries());
        this.deadLetters = new DeadLetters(queue, endpoint.deadLetterQueue());
    }

    /** The wake channel of this deliverer's shard, which announces ready messages. */
    String wakeChannel() {
        return queue.keys().wake();
    }

    /**
     * Acknowledges the messages finished since the last call and fetches up to {@code count} messages: those whose
     * lease expired (checked every half visibility timeout), else new ones, waiting up to {@code block} for them
     * ({@code null}: no wait).
     */
    List<Delivery> fetch(int count, Duration block) {
        List<Delivery> acks = drainFinished();
        try {
            if (reclaimIsDue()) {
                acknowledge(acks);
                acks.forEach(leases::finished);
                acks = List.of();
                List<Delivery> reclaimed = queue.reclaim(consumerName, endpoint.getConfiguration().getVisibilityTimeout(), count);
                if (!reclaimed.isEmpty()) {
                    LOG.info("Took over {} messages of queue {} whose lease expired", reclaimed.size(), queue.name());
                    return leased(reclaimed);
                }
            }
            List<Delivery> fresh = queue.ackAndReadNew(consumerName, count, acks);
            acks.forEach(leases::finished);
            acks = List.of();
            return leased(fresh.isEmpty() && block != null ? queue.readNew(consumerName, count, block) : fresh);
        } catch (RuntimeException e) {
            // not acknowledged: try again with the next fetch
            requeue(acks);
            throw e;
        }
    }

    /**
     * Acknowledges what finished since the last fetch. What fails stays queued and leased, so the next fetch or
     * flush acknowledges it; once this consumer stops, no one extends its lease and it is delivered again.
     */
    private void flushAcknowledgements() {
        List<Delivery> acks = drainFinished();
        try {
            acknowledge(acks);
            acks.forEach(leases::finished);
        } catch (RuntimeException e) {
            requeue(acks);
            LOG.warn("Could not acknowledge {} finished messages of queue {}; trying again with the next read (if the "
                     + "consumer stops first, they are delivered again after the visibility timeout): {}",
                    acks.size(), queue.name(), e.toString());
        }
    }

    /** Puts acknowledgements that failed back in line for the next attempt. */
    private void requeue(List<Delivery> acks) {
        if (!acks.isEmpty()) {
            oldestFinishedNanos.compareAndSet(0, System.nanoTime());
            finished.addAll(acks);
        }
    }

    /**
     * Keeps the leases of a fetched batch alive from the moment it is fetched, while its messages wait for their
     * turn, when this consumer extends leases at all.
     */
    private List<Delivery> leased(List<Delivery> batch) {
        if (leaseExtension != null) {
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

    private List<Delivery> drainFinished() {
        oldestFinishedNanos.set(0);
        List<Delivery> drained = new ArrayList<>();
        for (Delivery delivery = finished.poll(); delivery != null; delivery = finished.poll()) {
            drained.add(delivery);
        }
        return drained;
    }

    private void acknowledge(List<Delivery> deliveries) {
        if (!deliveries.isEmpty()) {
            queue.ack(deliveries);
        }
    }

    /** A delivery whose exchange succeeded: its lease is kept alive until the acknowledgement is sent. */
    private void succeeded(Delivery delivery) {
        if (deferAcks) {
            oldestFinishedNanos.compareAndSet(0, System.nanoTime());
            finished.add(delivery);
        } else {
            queue.ack(List.of(delivery));
            leases.finished(delivery);
        }
    }

    /**
     * Fills an exchange from a delivery and makes its completion settle the message.
     *
     * @return the completion, or {@code null} when the stored message cannot be read, or has exhausted its deliveries
     *         through expired leases; it was sent to the dead-letter queue instead
     */
    DeliveryCompletion prepare(Delivery delivery, Exchange exchange) {
        DeliveryCompletion completion
                = new DeliveryCompletion(delivery, queue, retryPolicy, deadLetters, this::succeeded, leases::finished);
        String problem = delivery.problem();
        int maxDeliveries = endpoint.getConfiguration().getMaxDeliveries();
        if (problem == null && maxDeliveries > 0 && delivery.deliveryCount() > maxDeliveries) {
            // its consumers kept dying or timing out on it: a poison message must not take down one node after another
            problem = "delivered " + (delivery.deliveryCount() - 1) + " times without being acknowledged within the "
                      + "visibility timeout (the consumers crashed, hung or were too slow)";
        }
        if (problem == null) {
            try {
                endpoint.messageMapper().populate(exchange, delivery, queue.name());
                endpoint.statistics().delivered(delivery.dueAt());
                exchange.getExchangeExtension().addOnCompletion(completion);
                return completion;
            } catch (IllegalArgumentException e) {
                problem = "unreadable message: " + e.getMessage();
            }
        }
        try {
            completion.deadLetter(problem);
        } catch (RuntimeException e) {
            LOG.warn("Could not dead-letter an unreadable message of queue {}; trying again after the visibility timeout: {}",
                    queue.name(), e.toString());
        } finally {
            leases.finished(delivery);
        }
        return null;
    }

    /**
     * Routes a fetched delivery through a consumer's processor; its lease is kept alive until then.
     */
    void deliver(Delivery delivery, DefaultConsumer consumer) {
        Exchange exchange = consumer.createExchange(false);
        DeliveryCompletion completion = prepare(delivery, exchange);
        if (completion == null) {
            consumer.releaseExchange(exchange, false);
            return;
        }
        try {
            consumer.getProcessor().process(exchange);
        } catch (Exception e) {
            consumer.getExceptionHandler().handleException("Error processing message " + delivery.messageId() + " of queue "
                                                           + queue.name(), exchange, e);
        } finally {
            if (!completion.fired()) {
                // never completed: leave the message to expire and be delivered again
                leases.finished(delivery);
            }
            consumer.releaseExchange(exchange, false);
        }
        long oldest = oldestFinishedNanos.get();
        if (oldest != 0 && System.nanoTime() - oldest > ACK_LINGER_NANOS) {
            // slow exchanges: do not let finished messages wait for the whole batch, a crash would repeat them
            flushAcknowledgements();
        }
    }

    /**
     * Starts extending the leases of fetched messages every third of the visibility timeout, on {@code leaseTimer}.
     */
    void start(ScheduledExecutorService leaseTimer) {
        long period = Math.max(50, endpoint.getConfiguration().getVisibilityTimeout() / 3);
        leaseExtension = leaseTimer.scheduleAtFixedRate(leases::extend, period, period, TimeUnit.MILLISECONDS);
    }

    /**
     * Stops extending leases, acknowledges what finished, and leaves the consumer group unless this consumer still
     * holds messages.
     */
    void stop() {
        if (leaseExtension != null) {
            leaseExtension.cancel(false);
            leaseExtension = null;
        }
        flushAcknowledgements();
        try {
            queue.retire(consumerName);
        } catch (RuntimeException e) {
            LOG.debug("Consumer {} could not leave the group of queue {}: {}", consumerName, queue.name(), e.toString());
        }
    }
}
