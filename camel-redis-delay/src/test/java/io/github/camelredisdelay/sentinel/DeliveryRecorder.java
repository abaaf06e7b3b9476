package io.github.camelredisdelay.sentinel;

import java.util.List;
import java.util.OptionalLong;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import io.github.camelredisdelay.RedisDelayConstants;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * The consumer route's processor: notes each delivery's message id and local time in this JVM's memory (Redis is
 * what fails here). The exchange completes, and the component acknowledges the message, right after the note.
 */
final class DeliveryRecorder implements Processor {

    /**
     * One delivery.
     *
     * @param atMillis     local time its exchange was processed
     * @param scheduledFor the due time Redis stored for it
     */
    record Delivery(String id, long atMillis, long scheduledFor) {

        /** How late it was processed, in ms. */
        long lateness() {
            return atMillis - scheduledFor;
        }
    }

    private final Queue<Delivery> deliveries = new ConcurrentLinkedQueue<>();

    @Override
    public void process(Exchange exchange) {
        long now = System.currentTimeMillis();
        deliveries.add(new Delivery(exchange.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID, String.class), now,
                exchange.getMessage().getHeader(RedisDelayConstants.SCHEDULED_FOR, Long.class)));
    }

    /** Every delivery so far, in order. */
    List<Delivery> deliveries() {
        return List.copyOf(deliveries);
    }

    int count() {
        return deliveries.size();
    }

    /** Local time of the first delivery processed at or after {@code millis}, if any. */
    OptionalLong firstAtOrAfter(long millis) {
        return deliveries.stream().mapToLong(Delivery::atMillis).filter(at -> at >= millis).min();
    }
}
