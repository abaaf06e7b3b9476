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

import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

import org.apache.camel.Exchange;
import org.apache.camel.ExchangePropertyKey;
import org.apache.camel.spi.AsyncProcessorAwaitManager;
import org.apache.camel.support.PluginHelper;
import org.apache.camel.support.task.Tasks;
import org.apache.camel.support.task.budget.Budgets;

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

    /**
     * How long an exchange is looked for among the threads that wait: the thread that routed it registers its wait once
     * its routing went on asynchronously, which a completion thread may overtake (the schedule replied at once, the
     * thread kept off a core a while).
     */
    private static final Duration WAIT_PATIENCE = Duration.ofSeconds(2);

    /**
     * The exchange whoever routed {@code exchange} waits for, {@code exchange} or the one it came from, if known. For a
     * part, looked for up to {@link #WAIT_PATIENCE}: a caller that waits without a thread is never found.
     */
    static Exchange of(Exchange exchange) {
        String cameFrom = exchange.getProperty(ExchangePropertyKey.CORRELATION_ID, String.class);
        if (cameFrom == null) {
            return find(exchange, null);
        }
        return patiently(exchange, () -> find(exchange, cameFrom));
    }

    /**
     * Whether a thread waits for {@code exchange} itself in Camel's await manager (a {@code ProducerTemplate}'s caller,
     * a consumer's thread), looked for up to {@link #WAIT_PATIENCE}: a caller that waits without a thread is never
     * found. Not looked for long for what no thread waits for: an {@code asyncConsumer}'s exchange, or a part (its
     * thread waits for the exchange it came from).
     */
    static boolean awaitedByAThread(Exchange exchange) {
        if (RoutingEnd.exchangeOf(exchange) == exchange
                || exchange.getProperty(ExchangePropertyKey.CORRELATION_ID) != null) {
            return waitingFor(exchange, null) != null;
        }
        return patiently(exchange, () -> waitingFor(exchange, null)) != null;
    }

    private static Exchange patiently(Exchange exchange, Supplier<Exchange> find) {
        return Tasks.foregroundTask().withName("RedisDelayWaitedExchange")
                .withBudget(Budgets.iterationTimeBudget().withMaxDuration(WAIT_PATIENCE)
                        .withInterval(Duration.ofMillis(1)).build())
                .build().run(exchange.getContext(), find, Objects::nonNull).orElse(null);
    }

    private static Exchange find(Exchange exchange, String cameFrom) {
        Exchange routed = RoutingEnd.exchangeOf(exchange);
        if (routed != null && isOrCameFrom(routed, exchange, cameFrom)) {
            return routed;
        }
        return waitingFor(exchange, cameFrom);
    }

    /** The exchange a thread waits for in Camel's await manager: {@code exchange}, or the one it came from. */
    private static Exchange waitingFor(Exchange exchange, String cameFrom) {
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
