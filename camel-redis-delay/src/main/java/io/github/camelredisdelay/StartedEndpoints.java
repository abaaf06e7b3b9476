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

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The endpoints of a component started and not stopped. Camel stops those of its endpoint cache at its stop, but not
 * those it evicted from the cache (toD makes one endpoint per distinct URI), which the component stops; and a URI Camel
 * evicted and resolves again gets its started endpoint back instead of a new one beside it.
 */
final class StartedEndpoints {

    private final Set<RedisDelayEndpoint> all = ConcurrentHashMap.newKeySet();
    private final Map<String, RedisDelayEndpoint> byUri = new ConcurrentHashMap<>();

    void add(RedisDelayEndpoint endpoint) {
        all.add(endpoint);
        byUri.putIfAbsent(endpoint.getEndpointUri(), endpoint);
    }

    void remove(RedisDelayEndpoint endpoint) {
        all.remove(endpoint);
        byUri.remove(endpoint.getEndpointUri(), endpoint);
    }

    /** @return the started endpoint of {@code uri}, or {@code null} */
    RedisDelayEndpoint of(String uri) {
        RedisDelayEndpoint endpoint = byUri.get(uri);
        return endpoint != null && endpoint.isStarted() ? endpoint : null;
    }

    List<RedisDelayEndpoint> snapshot() {
        return List.copyOf(all);
    }
}
