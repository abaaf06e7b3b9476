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
import org.apache.camel.support.SynchronizationAdapter;

/**
 * Fails an exchange that would end successfully with an {@code Error} that escaped Camel's routing engine while it
 * routed the exchange or a part of it: Camel went on with the part that threw as if it had succeeded, and a
 * {@code multicast} or {@code enrich} copies its result over the exchange's failure. Not when the route caught the
 * {@code Error} itself ({@code doCatch}). Added after the exchange's other completions, it runs before them (Camel runs
 * them last added first), so they, the delivery's settlement among them, and whoever waits for the exchange see it
 * failed.
 */
final class FailureAtEnd extends SynchronizationAdapter {

    private final Error error;

    private FailureAtEnd(Error error) {
        this.error = error;
    }

    /**
     * Fails {@code exchange} with {@code error} now, and again at its end should Camel go on as if it had succeeded.
     */
    static void failWith(Exchange exchange, Error error) {
        exchange.setException(error);
        failAtEnd(exchange, error);
    }

    /** Fails {@code exchange} with {@code error} when it ends, unless the route caught the {@code Error}. */
    static void failAtEnd(Exchange exchange, Error error) {
        exchange.getExchangeExtension().addOnCompletion(new FailureAtEnd(error));
    }

    @Override
    public void onComplete(Exchange exchange) {
        Throwable caught = exchange.getProperty(Exchange.EXCEPTION_CAUGHT, Throwable.class);
        // the exchange keeps an Error wrapped (CamelExecutionException), and so does what a doCatch caught
        if (caught != error && (caught == null || caught.getCause() != error)) {
            exchange.setException(error);
        }
    }
}
