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

import io.github.camelredisdelay.internal.ErrorReply;
import io.github.camelredisdelay.internal.OutageLog;
import org.apache.camel.spi.ExceptionHandler;
import org.redisson.client.RedisException;
import org.slf4j.Logger;

/**
 * A consumer's failed fetches: logged once when an outage starts and once when it ends ({@link OutageLog}), and handed
 * to the consumer's exception handler as often as they are logged at WARN when that is not Camel's default, which only
 * logs: the route's error handler with {@code bridgeErrorHandler}, or the endpoint's {@code exceptionHandler}. An
 * outage reaches them without flooding them, and a handler that fails is logged rather than ending the consumer's reads
 * ({@link ExceptionHandlerCall}).
 */
final class FetchFailures {

    private final RedisDelayEndpoint endpoint;
    private final OutageLog outage;

    FetchFailures(RedisDelayEndpoint endpoint, Logger log) {
        this.endpoint = endpoint;
        this.outage = new OutageLog(log, "Consumer of queue " + endpoint.getQueueName());
    }

    void failed(RuntimeException e, ExceptionHandler handler) {
        if (outage.failed(e) && (endpoint.isBridgeErrorHandler() || endpoint.getExceptionHandler() != null)) {
            ExceptionHandlerCall.handle(handler, endpoint.getQueueName(),
                    "Consumer of queue " + endpoint.getQueueName() + " cannot fetch messages", null, e);
        }
    }

    /** A fetch succeeded: ends the outage, if one was under way. */
    void succeeded() {
        outage.succeeded();
    }

    /**
     * Why the consumer reads nothing while Redis refuses its fetches (an error reply to the last one: an ACL's NOPERM,
     * say), for its readiness; {@code null} while they succeed or Redis is out of reach, which the check's probe
     * reports.
     */
    String refusal() {
        RedisException reply = outage.refusal();
        return reply == null
                ? null
                : "Consumer of queue " + endpoint.getQueueName() + " cannot fetch messages: Redis refused its read: "
                  + ErrorReply.plainly(reply);
    }

    /** Whether the last fetch failed. */
    boolean isDown() {
        return outage.isDown();
    }
}
