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
package io.github.camelredisdelay.example;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The example's stand-in for an order database: the state of every order and every delivery the routes saw. A real
 * application would keep this in its own database and update it idempotently, since a delay queue delivers at least
 * once.
 * <p>
 * Order ids carry a tag of their run ({@code order-k3x9-1}): on one's own Redis, a run's orders keep ids of their own
 * while the deadlines and payments of an earlier run are still scheduled there and delivered to this one.
 */
public final class OrderBook {

    /** Where an order stands. */
    public enum Status {
        /** Created; its payment deadline is scheduled. */
        AWAITING_PAYMENT,
        /** Paid before the deadline, which was cancelled. */
        PAID,
        /** The deadline passed without a payment. */
        EXPIRED,
        /** Paid after it had expired: the money goes back. */
        REFUND_DUE
    }

    /**
     * One message delivered to a route.
     *
     * @param queue         the queue it came from
     * @param messageId     its id
     * @param deliveryCount 1 on the first delivery
     * @param latenessMs    how long after its due time it arrived
     */
    public record Delivery(String queue, String messageId, int deliveryCount, long latenessMs) {
    }

    /**
     * A shop callback that failed on every delivery and ended in the dead-letter queue.
     *
     * @param orderId       the order it was about
     * @param originalQueue the queue it was dead-lettered from
     * @param lastError     the last delivery's error
     */
    public record DeadLetter(String orderId, String originalQueue, String lastError) {
    }

    private final String run = Integer.toString(ThreadLocalRandom.current().nextInt(36 * 36 * 36, 36 * 36 * 36 * 36), 36);
    private final AtomicLong lastNumber = new AtomicLong();
    private final Map<String, Status> orders = new ConcurrentHashMap<>();
    private final List<Delivery> deliveries = new CopyOnWriteArrayList<>();
    private final List<String> shopNotified = new CopyOnWriteArrayList<>();
    private final List<DeadLetter> deadLetters = new CopyOnWriteArrayList<>();

    /** Opens a new order and returns its number, 1, 2, 3... */
    public long open() {
        long number = lastNumber.incrementAndGet();
        orders.put(orderId(number), Status.AWAITING_PAYMENT);
        return number;
    }

    /** The id of this run's order {@code number}: {@code order-<run>-<number>}. */
    public String orderId(long number) {
        return "order-" + run + "-" + number;
    }

    public void setStatus(String orderId, Status status) {
        orders.put(orderId, status);
    }

    public void delivered(Delivery delivery) {
        deliveries.add(delivery);
    }

    public void shopNotified(String orderId) {
        shopNotified.add(orderId);
    }

    public void deadLettered(DeadLetter deadLetter) {
        deadLetters.add(deadLetter);
    }

    public Map<String, Status> orders() {
        return Map.copyOf(orders);
    }

    public List<String> ordersWith(Status status) {
        return orders.entrySet().stream().filter(order -> order.getValue() == status).map(Map.Entry::getKey).sorted()
                .toList();
    }

    public List<Delivery> deliveries() {
        return List.copyOf(deliveries);
    }

    public List<String> shopNotified() {
        return List.copyOf(shopNotified);
    }

    public List<DeadLetter> deadLetters() {
        return List.copyOf(deadLetters);
    }
}
