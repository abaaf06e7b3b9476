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

import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Reference-counted values shared by key: the first {@link #acquire} creates the value, the last {@link #release}
 * disposes of it. The component uses it for what its endpoints share (Redis clients, connections' timer threads,
 * transfer tasks, wake channels, statistics, queue guards), so a value lives exactly as long as some endpoint of the
 * CamelContext uses it.
 */
public final class SharedRegistry<K, V> {

    private static final class Shared<V> {
        private final V value;
        private int users;

        private Shared(V value) {
            this.value = value;
        }
    }

    private final Map<K, Shared<V>> entries = new HashMap<>();

    public synchronized V acquire(K key, Supplier<V> create) {
        Shared<V> shared = entries.get(key);
        if (shared == null) {
            shared = new Shared<>(create.get());
            entries.put(key, shared);
        }
        shared.users++;
        return shared.value;
    }

    public synchronized void release(K key, Consumer<V> dispose) {
        Shared<V> shared = entries.get(key);
        if (shared != null && --shared.users == 0) {
            entries.remove(key);
            dispose.accept(shared.value);
        }
    }

    /** Disposes of every value still shared, however many users it has left, and forgets them. */
    public synchronized void disposeAll(Consumer<V> dispose) {
        entries.values().forEach(shared -> dispose.accept(shared.value));
        entries.clear();
    }

    public synchronized int size() {
        return entries.size();
    }
}
