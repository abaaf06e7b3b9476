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

import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The endpoints of a component started and not stopped. Camel stops those of its endpoint cache at its stop, but not
 * those it evicted from the cache (toD makes one endpoint per distinct URI), nor one it created beside another of the
 * same URI (threads that look the URI up at once each get one), which the component stops; and a URI Camel evicted and
 * resolves again gets its started endpoint back instead of a new one beside it. Endpoints are told apart by identity:
 * Camel's equality is their URI's.
 */
final class StartedEndpoints {

    private final Set<RedisDelayEndpoint> all = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Map<String, RedisDelayEndpoint> byUri = new HashMap<>();

    synchronized void add(RedisDelayEndpoint endpoint) {
        all.add(endpoint);
        byUri.putIfAbsent(endpoint.getEndpointUri(), endpoint);
    }

    synchronized void remove(RedisDelayEndpoint endpoint) {
        all.remove(endpoint);
        if (byUri.get(endpoint.getEndpointUri()) == endpoint) {
            byUri.remove(endpoint.getEndpointUri());
        }
    }

    /** @return the started endpoint of {@code uri}, or {@code null} */
    RedisDelayEndpoint of(String uri) {
        RedisDelayEndpoint endpoint;
        synchronized (this) {
            endpoint = byUri.get(uri);
        }
        return endpoint != null && endpoint.isStarted() ? endpoint : null;
    }

    synchronized List<RedisDelayEndpoint> snapshot() {
        return List.copyOf(all);
    }
}
