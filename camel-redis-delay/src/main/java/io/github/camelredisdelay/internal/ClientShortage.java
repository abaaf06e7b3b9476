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
package io.github.camelredisdelay.internal;

import org.redisson.client.RedisTimeoutException;

/**
 * Tells a shortage inside the Redis client from Redis being unreachable. Redisson fails a command with a
 * {@link RedisTimeoutException} "Unable to acquire connection" when every connection of its pool stayed busy for the
 * whole wait: behind a pool too small for the calls while Redis is perfectly healthy (an operator must raise a pool
 * setting), or behind a Redis that stopped answering with its connections open (paused, frozen, a partition), whose
 * calls hold every connection until they time out. The pool alone cannot tell the two apart, so the advice names both
 * and what tells them apart. Redisson fails a call alike when the connection it opens for it is not set up in time (its
 * first command is answered later than {@code retryDelay}): a restarted Redis that loads its dataset answers only
 * between chunks of the load (2 MB each), and a chunk may take longer (a slow disk, large keys). Redisson then reports
 * neither the connection nor Redis' LOADING reply, which comes later, so the advice names that case as a possibility,
 * never as a fact. With retries configured (the component's own client retries once, 200 ms apart) Redisson 4 waits for
 * a free connection {@code retryDelay} per attempt, not its {@code timeout}; each call holds a connection for a round
 * trip, so a pool runs short sooner the longer the link to Redis is. A subscription Redisson got no connection for in
 * time fails alike while Redis is out of reach: {@link WakeChannels} asks Redis before it reports such a failure as a
 * shortage.
 */
public final class ClientShortage {

    /** What raises the calls a client's pool carries at once. */
    private static final String RAISE_POOL = "raise the Redisson setting connectionPoolSize or retryDelay (how long a call "
                                             + "waits for a free connection per attempt; a distant Redis needs more), or "
                                             + "use fewer threads per client";

    private ClientShortage() {
    }

    /**
     * What to tell the operator when {@code failure} (or a cause of it) is such a shortage, else {@code null}.
     */
    public static String advice(Throwable failure) {
        Throwable shortage = RootCause.first(failure, cause -> cause instanceof RedisTimeoutException
                && String.valueOf(cause.getMessage()).contains("Unable to acquire connection"));
        if (shortage == null) {
            return null;
        }
        if (shortage.getMessage().contains("Unable to acquire connection for subscription")) {
            return "the Redis client ran out of subscription connections (not a Redis outage): raise the Redisson "
                   + "settings subscriptionConnectionPoolSize or subscriptionsPerConnection";
        }
        return "the Redis client got no connection in time (\"Unable to acquire connection\"): every pooled "
               + "connection awaits an answer, or Redis did not answer a new one in time. If Redis answers "
               + "other clients at once, the pool is too small: " + RAISE_POOL + "; if not, Redis may be loading its "
               + "dataset after a restart (INFO persistence: loading:1) or stopped answering (paused, frozen, cut off)";
    }

    /** What to change when the calls of a client wait for a free connection of its pool while Redis answers. */
    public static String poolAdvice() {
        return RAISE_POOL;
    }
}
