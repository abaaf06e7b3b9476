package io.github.camelredisdelay.example;

import io.github.camelredisdelay.RedisDelayConstants;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.Processor;

/**
 * A simulated, unreliable HTTP callback to the shop. It times out on the first delivery of every callback, which
 * the queue's retry schedule absorbs, and it always rejects the callbacks of orders 4, 8, 12..., which therefore
 * end in the dead-letter queue.
 */
final class ShopWebhook implements Processor {

    /** The simulated shop's failure. */
    static final class ShopUnavailableException extends RuntimeException {
        ShopUnavailableException(String message) {
            super(message);
        }
    }

    @Override
    public void process(Exchange exchange) {
        Message message = exchange.getMessage();
        long orderNumber = message.getHeader(OrderRoutes.ORDER_NUMBER, Long.class);
        int delivery = message.getHeader(RedisDelayConstants.DELIVERY_COUNT, Integer.class);
        if (orderNumber % 4 == 0) {
            throw new ShopUnavailableException("HTTP 410 Gone from the shop for " + OrderBook.orderId(orderNumber));
        }
        if (delivery == 1) {
            throw new ShopUnavailableException("no answer from the shop within 500 ms");
        }
    }
}
