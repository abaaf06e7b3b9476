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
package io.github.camelredisdelay.embedded;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** What one Sentinel currently believes about the master it monitors under a name. */
final class SentinelView {

    private final RedisServerProcess sentinel;
    private final String masterName;

    SentinelView(RedisServerProcess sentinel, String masterName) {
        this.sentinel = sentinel;
        this.masterName = masterName;
    }

    /**
     * The port of the master as {@code SENTINEL get-master-addr-by-name} names it; during a failover that is the
     * promoted replica as soon as this Sentinel saw it promoted. Empty when the Sentinel is not running.
     *
     * @throws IllegalStateException when the Sentinel does not know the master name
     */
    Optional<Integer> masterPort() {
        if (!sentinel.isRunning()) {
            return Optional.empty();
        }
        List<String> address = lines(sentinel.command("SENTINEL", "get-master-addr-by-name", masterName));
        if (address.size() != 2) {
            throw new IllegalStateException(sentinel + " names no master '" + masterName + "': " + address);
        }
        return Optional.of(Integer.parseInt(address.get(1)));
    }

    /**
     * True when this Sentinel sees the master up, knows {@code replicas} replicas whose link to the master is up, and
     * knows {@code otherSentinels} other Sentinels: what a failover and a client's discovery need.
     */
    boolean isSettled(int replicas, int otherSentinels) {
        List<Map.Entry<String, String>> master = pairs(sentinel.command("SENTINEL", "MASTER", masterName));
        List<Map.Entry<String, String>> replicaFields = pairs(sentinel.command("SENTINEL", "REPLICAS", masterName));
        return master.contains(Map.entry("flags", "master"))
                && master.contains(Map.entry("num-slaves", String.valueOf(replicas)))
                && master.contains(Map.entry("num-other-sentinels", String.valueOf(otherSentinels)))
                && count(replicaFields, Map.entry("flags", "slave")) == replicas
                && count(replicaFields, Map.entry("master-link-status", "ok")) == replicas;
    }

    private static long count(List<Map.Entry<String, String>> fields, Map.Entry<String, String> wanted) {
        return fields.stream().filter(wanted::equals).count();
    }

    /**
     * The name-value pairs of a reply that lists name, value, name, value…; a list of such lists (one per replica)
     * arrives flattened, one element per line, and reads the same way.
     */
    private static List<Map.Entry<String, String>> pairs(String reply) {
        List<String> lines = lines(reply);
        List<Map.Entry<String, String>> pairs = new ArrayList<>();
        for (int i = 0; i + 1 < lines.size(); i += 2) {
            pairs.add(Map.entry(lines.get(i), lines.get(i + 1)));
        }
        return pairs;
    }

    private static List<String> lines(String reply) {
        return reply == null ? List.of() : reply.lines().toList();
    }
}
