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
import java.util.Map;
import java.util.TreeSet;

import org.redisson.api.RedissonClient;

/**
 * Refuses to guess which Redis to use. Camel autowires a {@link RedissonClient} bean only when there is exactly one;
 * with several (one for caching, one for queues, say) and none chosen, the component would quietly connect to its
 * default address instead. That is an error here, naming the candidates; so is a client beside an address or Redisson
 * configuration of the component's own (the autowired bean of the application's cache beside the queues' address),
 * where the client would win in silence.
 */
final class ClientChoice {

    private ClientChoice() {
    }

    /**
     * @param  component             the component of the queue's endpoint: whether it takes a single RedissonClient
     *                               bean by itself (autowiring), and the name its properties go under
     * @throws IllegalStateException when {@code options} has a client and an address or Redisson configuration both;
     *                               when it sets {@code username}, {@code password} or {@code database} beside a client
     *                               or a Redisson configuration, which has its own; or, with autowiring on, when
     *                               several RedissonClient beans are in the registry and {@code options} neither names
     *                               one nor sets an address or a Redisson configuration of its own
     */
    static void checkUnambiguous(RedisDelayComponent component, RedisDelayConfiguration options, String queue) {
        boolean autowiring = component.isAutowiredEnabled();
        String redissonConfig = options.getRedissonConfig();
        boolean ownConnection = options.isAddressSet() || redissonConfig != null;
        if (options.getRedissonClient() != null && ownConnection) {
            String option = redissonConfig != null ? "redissonConfig" : "address";
            String own = options.ownConnection();
            String choice = autowiring
                    ? "With a single RedissonClient bean in the registry, Camel sets it on the component by itself "
                      + "(autowiring): to connect to the " + own + " instead, set autowiredEnabled=false on the "
                      + "component (camel.component." + component.name() + ".autowired-enabled=false); to use the "
                      + "client, remove the " + option + "."
                    : "To use the client, remove the " + option + "; to connect to the " + own + ", remove the client.";
            throw new IllegalStateException(
                    "Queue " + queue + " has both a RedissonClient and " + own + " (on the component, or both on its "
                                            + "endpoint): the client would be used and the " + own + " ignored. "
                                            + choice);
        }
        checkNoIgnoredConnectionOptions(options, queue);
        if (!autowiring || options.getRedissonClient() != null || ownConnection) {
            return;
        }
        Map<String, RedissonClient> beans
                = component.getCamelContext().getRegistry().findByTypeWithName(RedissonClient.class);
        if (beans.size() > 1) {
            throw new IllegalStateException(
                    "Queue " + queue + " cannot tell which Redis to use: the registry holds "
                                            + beans.size() + " RedissonClient beans " + new TreeSet<>(beans.keySet())
                                            + " and none was chosen. Set redissonClient=#bean:<name> on the component or"
                                            + " the endpoint (camel.component." + component.name()
                                            + ".redisson-client=#bean:<name>),"
                                            + " or address / redissonConfig to connect on its own.");
        }
    }

    /** The user, password and database options go with an address: a client or a Redisson configuration has its own. */
    private static void checkNoIgnoredConnectionOptions(RedisDelayConfiguration options, String queue) {
        String source = options.getRedissonClient() != null ? "a RedissonClient"
                : options.getRedissonConfig() != null ? "redissonConfig " + options.getRedissonConfig() : null;
        if (source == null) {
            return;
        }
        List<String> ignored = new ArrayList<>();
        if (options.getUsername() != null) {
            ignored.add("username");
        }
        if (options.getPassword() != null) {
            ignored.add("password");
        }
        if (options.getDatabase() != null) {
            ignored.add("database=" + options.getDatabase());
        }
        if (!ignored.isEmpty()) {
            throw new IllegalStateException(
                    "Queue " + queue + " sets " + String.join(", ", ignored) + " beside " + source
                                            + " (on the component, or on its endpoint), whose own connection settings "
                                            + "are used: they would be ignored. Set them in the client's configuration, "
                                            + "or connect with address instead.");
        }
    }
}
