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

import java.lang.ref.Reference;
import java.util.concurrent.RejectedExecutionException;

import io.github.camelredisdelay.internal.Delivery;
import org.apache.camel.CamelContext;
import org.apache.camel.CamelExecutionException;
import org.apache.camel.Exchange;
import org.apache.camel.RollbackExchangeException;
import org.apache.camel.Route;
import org.apache.camel.StatefulService;
import org.apache.camel.spi.Synchronization;
import org.apache.camel.spi.SynchronizationVetoable;
import org.apache.camel.support.SynchronizationAdapter;

/**
 * Hands the outcome of a delivered message's exchange to its {@link Settlement}. When Camel hands this completion over
 * to a copy of the exchange (a {@code seda:} route's, say), the delivery is settled once both are done: as the copy
 * ended if the delivered exchange succeeded, as failed at once if that exchange failed, whichever ends first. A message
 * a {@code ConsumerTemplate} or {@code pollEnrich} took has no delivered exchange of the component's to wait for: a
 * copy's outcome settles it.
 */
final class DeliveryCompletion implements SynchronizationVetoable {

    private final Delivery delivery;
    private final Settlement settlement;
    private final DroppedCopies droppedCopies;
    /** Whether the settlement ran or is running; guarded by {@code this}. */
    private boolean settled;
    /**
     * Whether the delivered exchange itself succeeded while a copy still had this completion, or is none to wait for (a
     * taken message); guarded by this.
     */
    private boolean exchangeSucceeded;
    /** The copy's outcome, held until the delivered exchange is done; guarded by {@code this}. */
    private Runnable copyOutcome;
    private volatile boolean handedOver;
    /** The watched copy that has this completion now, if any. */
    private volatile Reference<Exchange> copy;

    /**
     * @param droppedCopies  where copies that take this completion over are watched, or {@code null} when the lease is
     *                       not kept alive (it expires by itself)
     * @param routedByReader whether a consumer of the component routes the exchange and then calls
     *                       {@link #exchangeDone}; {@code false} for a message taken by a {@code ConsumerTemplate} or
     *                       {@code pollEnrich}, which no such call follows
     */
    DeliveryCompletion(Delivery delivery, Settlement settlement, DroppedCopies droppedCopies, boolean routedByReader) {
        this.delivery = delivery;
        this.settlement = settlement;
        this.droppedCopies = droppedCopies;
        this.exchangeSucceeded = !routedByReader;
    }

    /**
     * The delivered exchange is done. Without a copy, its completion settled it already (after an {@code Error} thrown
     * past Camel's error handling, once the consumer ended the unit of work: {@link OpenUnitOfWork}); if none ran, a
     * failure settles it as failed, and otherwise the message is left to be delivered again. With one, a failure
     * settles it at once (a full {@code seda:} queue fails so, and its copy never runs), and a success settles it as
     * the copy ended, or once it ends.
     */
    void exchangeDone(Exchange exchange) {
        Runnable outcome;
        synchronized (this) {
            if (settled) {
                return;
            }
            if (!handedOver) {
                // no completion ran (Camel's unit of work never ended): a failure settles it, or else nothing does
                // and it is delivered again after its lease
                outcome = exchange.isFailed() ? outcomeOf(exchange) : () -> settlement.abandoned(delivery);
            } else if (!succeeded(exchange)) {
                outcome = outcomeOf(exchange);
            } else if (copyOutcome != null) {
                outcome = copyOutcome;
            } else {
                exchangeSucceeded = true;
                return;
            }
            settled = true;
        }
        forgetCopy();
        outcome.run();
    }

    /**
     * What settles a message that {@code pollEnrich} took when the exchange that took it ({@code taker}) is done,
     * unless Camel handed this completion over to that exchange: it does so once the aggregation strategy merged the
     * message in, and drops the taken exchange with this completion instead when the strategy failed (the message is
     * then retried with the taker's failure) or returned {@code null} (acknowledged as the taker's route succeeded).
     */
    Synchronization whenTakerDone() {
        return new SynchronizationAdapter() {
            @Override
            public void onDone(Exchange taker) {
                if (!handedOver) {
                    settleOrHold(outcomeOf(taker));
                }
            }
        };
    }

    /** The copy that had this completion was dropped before it completed: the message is delivered again. */
    void copyDropped() {
        settleOrHold(() -> settlement.dropped(delivery));
    }

    @Override
    public boolean allowHandover() {
        return true;
    }

    @Override
    public void beforeHandover(Exchange target) {
        handedOver = true;
        if (droppedCopies != null) {
            Reference<Exchange> previous = copy;
            copy = droppedCopies.watch(target, this);
            if (previous != null) {
                droppedCopies.forget(previous);
            }
        }
    }

    private void forgetCopy() {
        Reference<Exchange> watched = copy;
        if (watched != null) {
            droppedCopies.forget(watched);
        }
    }

    @Override
    public void onComplete(Exchange exchange) {
        settleOrHold(outcomeOf(exchange));
    }

    @Override
    public void onFailure(Exchange exchange) {
        settleOrHold(outcomeOf(exchange));
    }

    /** An exchange marked rollback-only (Camel's Rollback EIP) failed, with no exception. */
    private static boolean succeeded(Exchange exchange) {
        return !exchange.isFailed() && !exchange.isRollbackOnly() && !exchange.isRollbackOnlyLast();
    }

    private Runnable outcomeOf(Exchange exchange) {
        if (exchange.isFailed()) {
            return () -> settleFailed(exchange);
        }
        if (!succeeded(exchange)) {
            return () -> settlement.failed(delivery, rolledBack(exchange));
        }
        return () -> settlement.succeeded(delivery);
    }

    /**
     * Why an exchange marked rollback-only failed, with the exception an error handler or {@code doCatch} handled
     * before, if any ({@code onException(...).handled(true).markRollbackOnly()}) as its cause: the failure the
     * message's last error names. The cause is set after the exception is made, whose message Camel would otherwise
     * build from the cause's, reading which may throw ({@link Settlement} names what it threw instead).
     */
    private static RollbackExchangeException rolledBack(Exchange exchange) {
        RollbackExchangeException rolledBack
                = new RollbackExchangeException("The exchange was marked rollback-only", exchange);
        Exception handled = exchange.getProperty(Exchange.EXCEPTION_CAUGHT, Exception.class);
        if (handled != null) {
            rolledBack.initCause(handled);
        }
        return rolledBack;
    }

    /**
     * Settles with this outcome, unless the delivery is settled; an outcome of a copy waits until the delivered
     * exchange succeeded. Either way the copy is no longer watched: it ended, so the collector finding it unreachable
     * later does not make it a dropped one.
     */
    private void settleOrHold(Runnable outcome) {
        boolean held;
        synchronized (this) {
            if (settled) {
                return;
            }
            held = handedOver && !exchangeSucceeded;
            if (held) {
                copyOutcome = outcome;
            } else {
                settled = true;
            }
        }
        forgetCopy();
        if (!held) {
            outcome.run();
        }
    }

    /**
     * Settles the delivery as failed, unless a stop cut the exchange off: that is not the message's failure, so it
     * stays leased and is delivered again after the visibility timeout, without a retry or dead-lettering.
     */
    private void settleFailed(Exchange exchange) {
        if (cutOffByStop(exchange)) {
            settlement.abandoned(delivery);
            return;
        }
        Exception failure = exchange.getException();
        // an Error thrown past Camel's error handling, which the exchange keeps wrapped: the Error is what failed
        settlement.failed(delivery,
                failure instanceof CamelExecutionException && failure.getCause() instanceof Error error ? error : failure);
    }

    /**
     * Whether the exchange failed, while its consumer, its route or the context stops, on an interrupt (what a stop
     * that ran out of time sends its threads) or on a refused step (a stopped route and Camel's forced shutdown reject
     * what would run next; so do the route's processors that a stopping consumer stops, before its route's status
     * changes or when the consumer alone stops).
     */
    private static boolean cutOffByStop(Exchange exchange) {
        // both look through the failure's causes; an interrupt while nothing stops is the route's own failure (a
        // client library's deadline, say)
        return (exchange.getException(InterruptedException.class) != null
                || exchange.getException(RejectedExecutionException.class) != null) && stopping(exchange);
    }

    private static boolean stopping(Exchange exchange) {
        CamelContext context = exchange.getContext();
        if (context.isStopping() || context.isStopped()) {
            return true;
        }
        // a route stops its consumer first, so a stopping or stopped route has a stopping or stopped consumer
        String routeId = exchange.getFromRouteId();
        Route route = routeId == null ? null : context.getRoute(routeId);
        return route != null && route.getConsumer() instanceof StatefulService consumer
                && (consumer.isStopping() || consumer.isStopped());
    }
}
