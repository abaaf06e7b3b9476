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

import io.github.camelredisdelay.internal.LogText;
import org.apache.camel.AsyncCallback;
import org.apache.camel.Exchange;
import org.apache.camel.ExchangePropertyKey;
import org.apache.camel.support.PluginHelper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Continues a route after an asynchronous schedule, on a completion thread of the component. An {@code Error} a later
 * step throws there (a poison message's {@code StackOverflowError}) escapes Camel's routing engine, which then neither
 * ends the exchange nor calls back whoever waits for it at once (its after-steps stay queued on the thread, to run at
 * the next exchange routed there); nothing would log it either. So it is logged, the exchange fails with it, and the
 * after-steps Camel left queued run at once, which end it and call back whoever waits. What they leave open of it ends
 * too ({@link OpenUnitOfWork#endAfterThrow}: a delivered message is settled as failed, retried or dead-lettered), and
 * whoever still waits for the exchange is released: an {@code asyncConsumer} ({@link RoutingEnd}), or a thread (a
 * {@code ProducerTemplate}'s caller, a consumer's thread), the exchange then failing with Camel's
 * {@code RejectedExecutionException} for it; for a part of a {@code split} or {@code multicast} left so, the exchange
 * that fanned out, which waits for it, ends too ({@link #endFanOut}). The exchange may be done when the {@code Error}
 * escapes (a part of a {@code split}, after which Camel went on here with the next part): the exchange it is a part of
 * then fails with it ({@link #failAtEnd}).
 */
final class ScheduleContinuation {

    private static final Logger LOG = LoggerFactory.getLogger(ScheduleContinuation.class);

    private ScheduleContinuation() {
    }

    /** Calls {@code callback}, which continues the route of {@code exchange}, ending the exchange if it throws. */
    static void resume(Exchange exchange, AsyncCallback callback) {
        try {
            callback.done(false);
        } catch (Error e) {
            if (OpenUnitOfWork.isOpen(exchange)) {
                LOG.error("A step after the schedule of exchange {} threw {}: the exchange fails with it",
                        exchange.getExchangeId(), LogText.of(e), e);
                FailureAtEnd.failWith(exchange, e);
            } else {
                failAtEnd(exchange, e);
            }
            if (OpenUnitOfWork.endAfterThrow(exchange)) {
                release(exchange);
                endFanOut(exchange, e);
            }
        }
    }

    /**
     * Releases whoever waits for {@code exchange}, which Camel will not call back: an {@code asyncConsumer}, or a
     * thread waiting in Camel's await manager, which may begin its wait only after this thread got here (it registers
     * once the route went on asynchronously), so it is looked for a while ({@link WaitedExchange#awaitedByAThread}).
     */
    private static void release(Exchange exchange) {
        RoutingEnd.abandoned(exchange);
        if (WaitedExchange.awaitedByAThread(exchange)) {
            PluginHelper.getAsyncProcessorAwaitManager(exchange.getContext()).interrupt(exchange);
        }
    }

    /**
     * Ends the exchange that fanned out into {@code part}, a part of a {@code split}, {@code multicast} or
     * {@code recipientList} that Camel will not call back: it waits for the part for ever. It fails with the
     * {@code Error} and ends (its delivery is retried or dead-lettered), and whoever waits for it is released.
     */
    private static void endFanOut(Exchange part, Error e) {
        if (part.getProperty(ExchangePropertyKey.SPLIT_INDEX) == null
                && part.getProperty(ExchangePropertyKey.MULTICAST_INDEX) == null) {
            return;
        }
        Exchange waited = WaitedExchange.of(part);
        if (waited != null && waited != part && OpenUnitOfWork.isOpen(waited)) {
            waited.setException(e);
            if (OpenUnitOfWork.endAfterThrow(waited)) {
                release(waited);
            }
        }
    }

    /**
     * The exchange is done: Camel went on here with what came after it, the next part of the {@code split} or
     * {@code multicast} it is a part of, or the rest of the route of the exchange that fanned out, and that threw. That
     * exchange fails with the {@code Error} when it ends, Camel going on with the part as if it had succeeded: its
     * delivery is retried or dead-lettered, a {@code ProducerTemplate}'s caller gets the {@code Error}.
     */
    private static void failAtEnd(Exchange exchange, Error e) {
        Exchange waited = WaitedExchange.of(exchange);
        if (waited == null || waited == exchange || !OpenUnitOfWork.isOpen(waited)) {
            LOG.error("A step after the schedule of exchange {} threw {} once the exchange was done",
                    exchange.getExchangeId(), LogText.of(e), e);
            return;
        }
        LOG.error("A step after the schedule of exchange {} threw {} once the exchange was done: exchange {} fails "
                  + "with it",
                exchange.getExchangeId(), LogText.of(e), waited.getExchangeId(), e);
        FailureAtEnd.failAtEnd(waited, e);
    }
}
