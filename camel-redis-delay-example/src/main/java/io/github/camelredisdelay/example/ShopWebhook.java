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

import io.github.camelredisdelay.RedisDelayConstants;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.Processor;

/**
 * A simulated, unreliable HTTP callback to the shop. It always rejects the callbacks of orders 4, 8, 12..., which
 * therefore end in the dead-letter queue, and times out on the first delivery of every other callback, which the
 * queue's retry schedule absorbs.
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
            throw new ShopUnavailableException(
                    "HTTP 410 Gone from the shop for " + message.getHeader(OrderRoutes.ORDER_ID, String.class));
        }
        if (delivery == 1) {
            throw new ShopUnavailableException("no answer from the shop within 500 ms");
        }
    }
}
