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
import org.apache.camel.Exchange;
import org.apache.camel.spi.ExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells a consumer's exception handler of an error, and survives the handler's own failure: an application's
 * {@code exceptionHandler} that throws (it forwards to an alerting client that is down, say), an {@code Error} too, or
 * a route error handler that throws past Camel with {@code bridgeErrorHandler}, is logged at WARN naming the queue (the
 * error and the handler's failure escaped: {@link LogText}), and the consumer goes on; thrown on, it would end a reader
 * thread or leave an exchange unsettled.
 */
final class ExceptionHandlerCall {

    private static final Logger LOG = LoggerFactory.getLogger(ExceptionHandlerCall.class);

    private ExceptionHandlerCall() {
    }

    /**
     * Hands {@code error} to {@code handler} with {@code message}, and {@code exchange} when there is one; what the
     * handler throws is logged, not thrown.
     */
    static void handle(ExceptionHandler handler, String queue, String message, Exchange exchange, Throwable error) {
        try {
            if (exchange == null) {
                handler.handleException(message, error);
            } else {
                handler.handleException(message, exchange, error);
            }
        } catch (Throwable failure) {
            LOG.warn("The exception handler of the consumer of queue {} failed with {} while handling \"{}\" ({}); the "
                     + "consumer goes on",
                    queue, LogText.of(failure), LogText.of(message), LogText.of(error), failure);
        }
    }
}
