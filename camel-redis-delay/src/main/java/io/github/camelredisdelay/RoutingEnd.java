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

/**
 * What a consumer that does not wait for its exchange ({@code asyncConsumer=true}) runs when the exchange is done, kept
 * with the exchange for when Camel's routing engine will never call it back: an {@code Error} escaped the engine on a
 * thread of the component ({@link ScheduleContinuation}). A copy of the exchange (a {@code split} part) carries the
 * property too, which leads to the exchange ({@link #exchangeOf}), but only the exchange itself ends it.
 */
final class RoutingEnd {

    private static final String PROPERTY = "CamelRedisDelayRoutingEnd";

    private final Exchange exchange;
    private final Runnable end;

    private RoutingEnd(Exchange exchange, Runnable end) {
        this.exchange = exchange;
        this.end = end;
    }

    /** Keeps {@code end}, which the consumer runs once {@code exchange} is done, with the exchange. */
    static void attach(Exchange exchange, Runnable end) {
        exchange.setProperty(PROPERTY, new RoutingEnd(exchange, end));
    }

    /** The exchange an {@code asyncConsumer} routes that {@code exchange} is, or is a copy of; {@code null} if none. */
    static Exchange exchangeOf(Exchange exchange) {
        return exchange.getProperty(PROPERTY) instanceof RoutingEnd routing ? routing.exchange : null;
    }

    /** Runs what the consumer of {@code exchange} runs once it is done, if it is a consumer's own exchange. */
    static void abandoned(Exchange exchange) {
        if (exchange.getProperty(PROPERTY) instanceof RoutingEnd routing && routing.exchange == exchange) {
            routing.end.run();
        }
    }
}
