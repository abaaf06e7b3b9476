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

import java.util.ArrayList;
import java.util.List;

import io.github.camelredisdelay.internal.LogText;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ExchangePropertyKey;
import org.apache.camel.Route;
import org.apache.camel.StatefulService;
import org.apache.camel.spi.InflightRepository;
import org.apache.camel.spi.ReactiveExecutor;
import org.apache.camel.spi.RoutePolicy;
import org.apache.camel.spi.UnitOfWork;
import org.apache.camel.support.UnitOfWorkHelper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends an exchange that an {@code Error} escaping Camel's routing engine left open (a poison message's
 * {@code StackOverflowError}). Camel leaves the exchange's after-steps (taking it out of the inflight repository,
 * ending its unit of work, calling back whoever waits for it) queued on the thread's reactive executor, to run only
 * when the next exchange is routed on that thread: until then the exchange is counted in flight, a graceful stop waits
 * its whole shutdown timeout for it, and its message is not settled. So they run at once, and what they leave open (a
 * route's count never taken back, its policies never told, the unit of work) ends here.
 */
final class OpenUnitOfWork {

    private static final Logger LOG = LoggerFactory.getLogger(OpenUnitOfWork.class);

    /** Scheduled to run what was left queued on the thread's reactive executor. */
    private static final Runnable NOTHING = () -> {
    };

    private OpenUnitOfWork() {
    }

    /**
     * Ends an exchange, already failed, after what Camel's routing engine threw on this thread: first Camel's own
     * after-steps of it that the throw left queued on the thread's reactive executor run (which end it, and call back
     * whoever waits for it), not at the next exchange routed on the thread, after the exchange ended here; then what
     * they leave open ends ({@link #end}).
     *
     * @return whether the exchange was left open and ended here (whoever waits for it was not called back), rather than
     *         by Camel
     */
    static boolean endAfterThrow(Exchange exchange) {
        String id = exchange.getExchangeId();
        UnitOfWork uow = exchange.getUnitOfWork();
        runQueued(exchange);
        // once ended, a pooled exchange may be another's already (with another id): left alone then
        if (!isOpen(exchange) || uow != exchange.getUnitOfWork() || !id.equals(exchange.getExchangeId())) {
            return false;
        }
        end(exchange);
        return true;
    }

    /**
     * Whether Camel still routes {@code exchange}: its unit of work is open, in a route. Not once Camel ended it: the
     * unit of work is then gone, or (a pooled exchange, which keeps it) holds no route any more.
     */
    static boolean isOpen(Exchange exchange) {
        UnitOfWork uow = exchange.getUnitOfWork();
        return uow != null && uow.getRoute() != null;
    }

    /**
     * Runs what Camel left queued on this thread's reactive executor. A step it runs may throw an {@code Error} too
     * (the next part of a {@code split} of the same poison message, say), which leaves the rest queued again: logged,
     * and the rest runs.
     */
    private static void runQueued(Exchange exchange) {
        ReactiveExecutor executor = exchange.getContext().getCamelContextExtension().getReactiveExecutor();
        for (;;) {
            try {
                executor.schedule(NOTHING);
                return;
            } catch (Error e) {
                LOG.error("A step that Camel ran on after exchange {} failed threw {} too", exchange.getExchangeId(),
                        LogText.of(e), e);
            }
        }
    }

    /**
     * Takes the exchange, open ({@link #isOpen}), out of the count of each route Camel left it in, tells the route's
     * policies it is done ({@link #tellPolicies}), and ends its unit of work, once the routing engine threw. An
     * {@code Error} a completion throws is logged, not thrown: it would end the consumer's thread.
     */
    private static void end(Exchange exchange) {
        UnitOfWork uow = exchange.getUnitOfWork();
        List<Route> left = new ArrayList<>();
        for (Route route = uow.popRoute(); route != null; route = uow.popRoute()) {
            left.add(route);
        }
        // each route entered through its consumer was counted once: its after-steps, never run, would uncount it,
        // then tell its policies. Not the first route of a part of a split or multicast, made in the route the
        // exchange it came from is in: the split put that route on the part's unit of work without counting the part
        // in it, nor telling its policies
        int entered = madeInItsFirstRoute(exchange, left) ? left.size() - 1 : left.size();
        InflightRepository inflight = exchange.getContext().getInflightRepository();
        for (Route route : left.subList(0, entered)) {
            inflight.remove(exchange, route.getRouteId());
            tellPolicies(route, exchange);
        }
        try {
            // runs the exchange's completions (the delivery's settlement among them) and uncounts it
            UnitOfWorkHelper.doneUow(uow, exchange);
        } catch (Error e) {
            LOG.warn("A completion of exchange {} failed with {} while its unit of work ended after an Error",
                    exchange.getExchangeId(), LogText.of(e), e);
        }
    }

    /**
     * Tells the policies of {@code route} that {@code exchange} is done, as Camel's after-step would have: not while
     * the context stops (a policy must not start a consumer then), nor a policy that is not running. What one throws is
     * logged: the other policies are told, and the exchange ends.
     */
    private static void tellPolicies(Route route, Exchange exchange) {
        CamelContext context = exchange.getContext();
        if (context.isStopping() || context.isStopped()) {
            return;
        }
        for (RoutePolicy policy : route.getRoutePolicyList()) {
            if (policy instanceof StatefulService service && !service.isRunAllowed()) {
                continue;
            }
            try {
                policy.onExchangeDone(route, exchange);
            } catch (Exception | Error e) {
                LOG.warn("Route policy {} of route {} failed with {} when told that exchange {} is done", policy,
                        route.getRouteId(), LogText.of(e), exchange.getExchangeId(), e);
            }
        }
    }

    /**
     * Whether {@code exchange} is a copy (one Camel correlates to the exchange it came from, as a part of a split or
     * multicast) made in the first of the routes it was {@code left} in, last first: the route it came from.
     */
    private static boolean madeInItsFirstRoute(Exchange exchange, List<Route> left) {
        return exchange.getProperty(ExchangePropertyKey.CORRELATION_ID) != null && !left.isEmpty()
                && left.get(left.size() - 1).getRouteId().equals(exchange.getFromRouteId());
    }
}
