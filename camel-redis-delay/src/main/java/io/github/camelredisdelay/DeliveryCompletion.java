package io.github.camelredisdelay;

import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import io.github.camelredisdelay.internal.DeadLetters;
import io.github.camelredisdelay.internal.Delivery;
import io.github.camelredisdelay.internal.RedisQueue;
import io.github.camelredisdelay.internal.RetryPolicy;
import org.apache.camel.Exchange;
import org.apache.camel.spi.Synchronization;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Settles a delivered message when its exchange completes: acknowledged on success (at once, or with the consumer's
 * next read); on failure redelivered after the retry schedule's delay, or moved to the dead-letter queue once its
 * deliveries are exhausted. If Redis cannot be reached at that moment, the message stays leased and is delivered
 * again after the visibility timeout.
 */
final class DeliveryCompletion implements Synchronization {

    private static final Logger LOG = LoggerFactory.getLogger(DeliveryCompletion.class);

    private final Delivery delivery;
    private final RedisQueue queue;
    private final RetryPolicy retryPolicy;
    private final DeadLetters deadLetters;
    private final Consumer<Delivery> acknowledge;
    private final Consumer<Delivery> release;
    private final AtomicBoolean fired = new AtomicBoolean();

    /**
     * @param acknowledge acknowledges a delivery now, or hands it on to be acknowledged with the consumer's next read
     * @param release     stops keeping the delivery's lease alive: it is settled, or must be left to expire
     */
    DeliveryCompletion(Delivery delivery, RedisQueue queue, RetryPolicy retryPolicy, DeadLetters deadLetters,
                       Consumer<Delivery> acknowledge, Consumer<Delivery> release) {
        this.delivery = delivery;
        this.queue = queue;
        this.retryPolicy = retryPolicy;
        this.deadLetters = deadLetters;
        this.acknowledge = acknowledge;
        this.release = release;
    }

    /** Whether the exchange completed, successfully or not. */
    boolean fired() {
        return fired.get();
    }

    @Override
    public void onComplete(Exchange exchange) {
        fired.set(true);
        try {
            acknowledge.accept(delivery);
        } catch (RuntimeException e) {
            release.accept(delivery);
            LOG.warn("Could not acknowledge message {} on queue {}; it will be delivered again after the visibility timeout: {}",
                    delivery.messageId(), queue.name(), e.toString());
        }
    }

    @Override
    public void onFailure(Exchange exchange) {
        fired.set(true);
        try {
            settleFailure(exchange);
        } finally {
            release.accept(delivery);
        }
    }

    private void settleFailure(Exchange exchange) {
        String error = describe(exchange.getException());
        try {
            OptionalLong delay = retryPolicy.delayAfter(delivery.deliveryCount());
            if (delay.isPresent()) {
                if (queue.retry(delivery, delay.getAsLong(), error)) {
                    LOG.warn("Delivery {} of message {} on queue {} failed, next delivery in {} ms: {}",
                            delivery.deliveryCount(), delivery.messageId(), queue.name(), delay.getAsLong(), error);
                }
            } else {
                deadLetter(error);
            }
        } catch (RuntimeException e) {
            LOG.warn("Could not settle failed message {} on queue {}; it will be delivered again after the visibility timeout: {}",
                    delivery.messageId(), queue.name(), e.toString());
        }
    }

    void deadLetter(String reason) {
        String deadLetterId = deadLetters.move(delivery, reason);
        if (deadLetterId == null) {
            LOG.info("Message {} on queue {} failed ({}) after a newer version of it was stored; the newer version stands",
                    delivery.messageId(), queue.name(), reason);
            return;
        }
        LOG.error("Message {} on queue {} moved to dead-letter queue {} as {} after {} deliveries: {}", delivery.messageId(),
                queue.name(), deadLetters.targetName(), deadLetterId, delivery.deliveryCount(), reason);
    }

    static String describe(Throwable error) {
        if (error == null) {
            return "exchange failed without an exception";
        }
        return error.getClass().getName() + ": " + error.getMessage();
    }
}
