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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Joins fresh {@code --cluster-enabled} nodes into one cluster with Redis' own commands, as
 * {@code redis-cli --cluster create} does, so no {@code redis-cli} is needed: every node meets the first, the first
 * {@code masters} nodes take equal slot ranges, and each other node becomes a replica of a master in turn.
 */
final class ClusterJoin {

    static final int SLOTS = 16384;
    private static final Duration MEET_TIMEOUT = Duration.ofSeconds(30);

    private ClusterJoin() {
    }

    static void join(List<RedisServerProcess> nodes, int masters) {
        RedisServerProcess first = nodes.get(0);
        for (RedisServerProcess node : nodes.subList(1, nodes.size())) {
            first.command("CLUSTER", "MEET", node.host(), String.valueOf(node.port()));
        }
        for (int i = 0; i < masters; i++) {
            nodes.get(i).command(addSlots(i * SLOTS / masters, (i + 1) * SLOTS / masters - 1));
        }
        BoundedWait.until("every node knows the other " + (nodes.size() - 1), MEET_TIMEOUT,
                () -> nodes.stream()
                        .allMatch(node -> ClusterNode.parseAll(node.command("CLUSTER", "NODES")).size() == nodes.size()),
                () -> nodes.stream().map(node -> node.port() + ":\n" + node.command("CLUSTER", "NODES"))
                        .collect(Collectors.joining("\n")));
        for (int i = masters; i < nodes.size(); i++) {
            String masterId = nodes.get((i - masters) % masters).command("CLUSTER", "MYID");
            nodes.get(i).command("CLUSTER", "REPLICATE", masterId);
        }
    }

    /** {@code CLUSTER ADDSLOTS} of every slot from {@code from} to {@code to}; Redis 6.2 has no ADDSLOTSRANGE. */
    private static String[] addSlots(int from, int to) {
        List<String> command = new ArrayList<>(List.of("CLUSTER", "ADDSLOTS"));
        for (int slot = from; slot <= to; slot++) {
            command.add(String.valueOf(slot));
        }
        return command.toArray(new String[0]);
    }
}
