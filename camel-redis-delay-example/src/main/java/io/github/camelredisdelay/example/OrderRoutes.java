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

import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;

import io.github.camelredisdelay.RedisDelayConstants;
import org.apache.camel.Exchange;
import org.apache.camel.LoggingLevel;
import org.apache.camel.Message;
import org.apache.camel.Predicate;
import org.apache.camel.builder.RouteBuilder;

/**
 * The order-timeout flow on four {@code redis-delay} queues:
 * <ul>
 * <li>{@code orders}: one message per order, due at its payment deadline; delivered only if nobody cancelled it, i.e.
 * the order expired;</li>
 * <li>{@code payments}: the simulated customers' payments, which cancel the deadline by the order id;</li>
 * <li>{@code callbacks}: tells the shop about each expired order through a flaky webhook, with quick retries;</li>
 * <li>{@code callbacks.dead}: callbacks that failed {@code maxDeliveries} times.</li>
 * </ul>
 * Every delivery is logged with its lateness: how long after the due time Redis stored it reached the route.
 */
final class OrderRoutes extends RouteBuilder {

    /** Header with the order's number; stored with the messages like any application header. */
    static final String ORDER_NUMBER = "orderNumber";
    /** Header with the order's id, {@code order-<run>-<number>} ({@link OrderBook#orderId}). */
    static final String ORDER_ID = "orderId";

    private static final String LATENESS = "latenessMs";
    private static final String DELIVERY = "[late ${exchangeProperty." + LATENESS + "} ms, delivery ${header."
                                           + RedisDelayConstants.DELIVERY_COUNT + "}]";

    private final OrderBook orderBook;
    private final ShopWebhook shopWebhook;

    OrderRoutes(OrderBook orderBook, ShopWebhook shopWebhook) {
        this.orderBook = orderBook;
        this.shopWebhook = shopWebhook;
    }

    @Override
    public void configure() {
        receivePayments();
        expireUnpaidOrders();
        notifyShop();
        logDeadCallbacks();
        // Last: Camel starts routes in this order and stops them in reverse, so no order is created while the
        // consumers are not running yet or already stopping.
        createOrders();
    }

    private void createOrders() {
        from("timer:new-orders?delay=1s&period={{orders.interval}}").routeId("create-orders")
                .process(this::openOrder)
                // The order id is the message id, so the payment can cancel the deadline by it.
                .to("redis-delay:orders?delay={{orders.payment-deadline}}")
                .process(this::rememberDueTime)
                .log("${header." + ORDER_ID + "} created: unless paid it expires at ${exchangeProperty.dueTime}")
                // The payment message keeps the order id as its id (ids are per queue), so it is stored once.
                .choice()
                .when(customer(Customer.PAYS_IN_TIME)).to("redis-delay:payments?delay={{orders.pay-in-time-after}}")
                .when(customer(Customer.PAYS_LATE)).to("redis-delay:payments?delay={{orders.pay-late-after}}")
                .end();
    }

    private void receivePayments() {
        from("redis-delay:payments").routeId("receive-payments")
                .process(this::recordDelivery)
                .log("payment for ${header." + ORDER_ID + "} received " + DELIVERY)
                .setHeader(RedisDelayConstants.MESSAGE_ID, header(ORDER_ID))
                .to("redis-delay:orders?operation=cancel")
                // cancel answers true when it removed the scheduled deadline, false when it was no longer scheduled
                .choice()
                .when(body().isEqualTo(true))
                .process(exchange -> orderBook.setStatus(orderId(exchange), OrderBook.Status.PAID))
                .log("${header." + ORDER_ID + "} paid in time: deadline cancelled")
                .otherwise()
                .process(exchange -> orderBook.setStatus(orderId(exchange), OrderBook.Status.REFUND_DUE))
                .log(LoggingLevel.WARN, "${header." + ORDER_ID + "} paid after it expired: refund due")
                .end();
    }

    private void expireUnpaidOrders() {
        from("redis-delay:orders").routeId("expire-orders")
                .process(this::recordDelivery)
                .log("${header." + ORDER_ID + "} expired unpaid " + DELIVERY)
                .process(exchange -> orderBook.setStatus(orderId(exchange), OrderBook.Status.EXPIRED))
                // The delivered message id (the order id) carries over: if this expiry is ever delivered twice,
                // the second schedule finds the callback already there and keeps it, so the shop hears once.
                .to("redis-delay:callbacks");
    }

    private void notifyShop() {
        from("redis-delay:callbacks?retrySchedule={{callbacks.retry-schedule}}"
             + "&maxDeliveries={{callbacks.max-deliveries}}").routeId("notify-shop")
                // Retries are the queue's job: a failed exchange goes straight back to Redis, which redelivers it
                // after the retry schedule's delay, on any node, even after a restart.
                .errorHandler(noErrorHandler())
                .process(this::recordDelivery)
                .log("callback for ${header." + ORDER_ID + "} " + DELIVERY)
                .process(shopWebhook)
                .process(exchange -> orderBook.shopNotified(orderId(exchange)))
                .log("shop notified of ${header." + ORDER_ID + "}");
    }

    /** The dead-letter queue is an ordinary queue; this route only reports what ended there. */
    private void logDeadCallbacks() {
        from("redis-delay:callbacks.dead").routeId("dead-callbacks")
                .process(this::recordDelivery)
                .process(exchange -> orderBook.deadLettered(new OrderBook.DeadLetter(
                        orderId(exchange),
                        exchange.getMessage().getHeader(RedisDelayConstants.ORIGINAL_QUEUE, String.class),
                        exchange.getMessage().getHeader(RedisDelayConstants.LAST_ERROR, String.class))))
                .log(LoggingLevel.WARN, "callback for ${header." + ORDER_ID + "} dead-lettered from ${header."
                                        + RedisDelayConstants.ORIGINAL_QUEUE + "}, last error: ${header."
                                        + RedisDelayConstants.LAST_ERROR + "} " + DELIVERY);
    }

    private void openOrder(Exchange exchange) {
        long number = orderBook.open();
        String orderId = orderBook.orderId(number);
        Message message = exchange.getMessage();
        message.setHeader(ORDER_NUMBER, number);
        message.setHeader(ORDER_ID, orderId);
        message.setHeader(RedisDelayConstants.MESSAGE_ID, orderId);
        message.setBody(orderId + ": 2 x coffee beans, 31.80 EUR");
    }

    /** The producer sets the due time Redis stored on the exchange. */
    private void rememberDueTime(Exchange exchange) {
        long dueAt = exchange.getMessage().getHeader(RedisDelayConstants.SCHEDULED_FOR, Long.class);
        exchange.setProperty("dueTime", LocalTime.ofInstant(Instant.ofEpochMilli(dueAt), ZoneId.systemDefault())
                .truncatedTo(ChronoUnit.MILLIS));
    }

    /**
     * Lateness compares this machine's clock with the due time from Redis' clock; on one machine they agree, across
     * machines the difference includes their clock skew (the component itself only ever uses Redis' clock).
     */
    private void recordDelivery(Exchange exchange) {
        Message message = exchange.getMessage();
        long lateness = System.currentTimeMillis() - message.getHeader(RedisDelayConstants.SCHEDULED_FOR, Long.class);
        exchange.setProperty(LATENESS, lateness);
        orderBook.delivered(new OrderBook.Delivery(
                message.getHeader(RedisDelayConstants.QUEUE, String.class),
                message.getHeader(RedisDelayConstants.MESSAGE_ID, String.class),
                message.getHeader(RedisDelayConstants.DELIVERY_COUNT, Integer.class), lateness));
    }

    private static Predicate customer(Customer behaviour) {
        return exchange -> Customer.of(exchange.getMessage().getHeader(ORDER_NUMBER, Long.class)) == behaviour;
    }

    private static String orderId(Exchange exchange) {
        return exchange.getMessage().getHeader(ORDER_ID, String.class);
    }
}
