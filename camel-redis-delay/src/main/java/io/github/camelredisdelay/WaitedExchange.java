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

import org.apache.camel.Exchange;
import org.apache.camel.ExchangePropertyKey;
import org.apache.camel.spi.AsyncProcessorAwaitManager;
import org.apache.camel.support.PluginHelper;

/**
 * The exchange that whoever routed an exchange waits for: the exchange itself, or the one it is a part of (a
 * {@code split}'s or {@code multicast}'s part is a copy, which Camel correlates to the exchange it came from:
 * {@link ExchangePropertyKey#CORRELATION_ID}). Known when an {@code asyncConsumer} of the component routed it
 * ({@link RoutingEnd}), or a thread waits for it in Camel's await manager (a consumer's thread, a
 * {@code ProducerTemplate}'s caller); not for a caller that waits without a thread (a {@code ProducerTemplate}'s
 * {@code asyncSend}).
 */
final class WaitedExchange {

    private WaitedExchange() {
    }

    /** The exchange whoever routed {@code exchange} waits for, {@code exchange} or the one it came from, if known. */
    static Exchange of(Exchange exchange) {
        String cameFrom = exchange.getProperty(ExchangePropertyKey.CORRELATION_ID, String.class);
        Exchange routed = RoutingEnd.exchangeOf(exchange);
        if (routed != null && isOrCameFrom(routed, exchange, cameFrom)) {
            return routed;
        }
        AsyncProcessorAwaitManager awaits = PluginHelper.getAsyncProcessorAwaitManager(exchange.getContext());
        for (AsyncProcessorAwaitManager.AwaitThread waiting : awaits.browse()) {
            if (isOrCameFrom(waiting.getExchange(), exchange, cameFrom)) {
                return waiting.getExchange();
            }
        }
        return null;
    }

    private static boolean isOrCameFrom(Exchange waited, Exchange exchange, String cameFrom) {
        return waited == exchange || waited.getExchangeId().equals(cameFrom);
    }
}
