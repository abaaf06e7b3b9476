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

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The write probes of every health check on one connection. Camel asks the checks one after another; the first of a
 * probe sends the writes of all of them at once, so that each of the others finds its answer under way or in, and a
 * Redis that does not answer costs a probe one check's wait, not one per check.
 */
final class ProbeRound {

    private final Set<WriteProbes> checks = ConcurrentHashMap.newKeySet();

    void add(WriteProbes probes) {
        checks.add(probes);
    }

    void remove(WriteProbes probes) {
        checks.remove(probes);
    }

    /** Sends the write of every check but {@code sender} that has none under way or sent for it and not yet used. */
    void sendOthers(WriteProbes sender) {
        for (WriteProbes other : checks) {
            if (other != sender) {
                other.sendAhead();
            }
        }
    }
}
