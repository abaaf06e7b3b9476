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

import java.util.Map;
import java.util.TreeSet;

import org.apache.camel.CamelContext;
import org.redisson.api.RedissonClient;

/**
 * Refuses to guess which Redis to use. Camel autowires a {@link RedissonClient} bean only when there is exactly one;
 * with several (one for caching, one for queues, say) and none chosen, the component would quietly connect to its
 * default address instead. That is an error here, naming the candidates.
 */
final class ClientChoice {

    private ClientChoice() {
    }

    /**
     * @throws IllegalStateException when several RedissonClient beans are in the registry and {@code options} neither
     *                               names one nor sets an address or a Redisson configuration of its own
     */
    static void checkUnambiguous(CamelContext context, RedisDelayConfiguration options, String queue) {
        if (options.getRedissonClient() != null || options.isAddressSet() || options.getRedissonConfig() != null) {
            return;
        }
        Map<String, RedissonClient> beans = context.getRegistry().findByTypeWithName(RedissonClient.class);
        if (beans.size() > 1) {
            throw new IllegalStateException(
                    "Queue " + queue + " cannot tell which Redis to use: the registry holds "
                                            + beans.size() + " RedissonClient beans " + new TreeSet<>(beans.keySet())
                                            + " and none was chosen. Set redissonClient=#bean:<name> on the component or"
                                            + " the endpoint (camel.component.redis-delay.redisson-client=#bean:<name>),"
                                            + " or address / redissonConfig to connect on its own.");
        }
    }
}
