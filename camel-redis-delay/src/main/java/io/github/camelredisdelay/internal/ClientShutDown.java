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

import org.redisson.RedissonShutdownException;

/**
 * Tells a Redis client that was shut down from Redis refusing a call or being unreachable. Redisson fails every call of
 * a shut-down client with a {@link RedissonShutdownException}, an error without a cause, as it reports Redis' error
 * replies. The component shuts down only the clients it creates, as it stops (a call still under way then fails so); a
 * client given to it (a {@code redissonClient} bean) that is shut down while routes use it was shut down by the
 * application, and nothing but the application can make its queues work again.
 */
public final class ClientShutDown {

    private ClientShutDown() {
    }

    /** What to tell the operator when {@code failure} (or a cause of it) is such a shutdown, else {@code null}. */
    public static String advice(Throwable failure) {
        return RootCause.first(failure, RedissonShutdownException.class::isInstance) == null
                ? null
                : "its Redis client is shut down (not a Redis outage): the component shuts down only a client it "
                  + "created, as the CamelContext stops; a RedissonClient given to it must stay up until then";
    }
}
