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
package io.github.camelredisdelay.test;

import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;

import org.redisson.api.RedissonClient;
import org.redisson.api.redisnode.RedisNode;
import org.redisson.api.redisnode.RedisNodes;

/**
 * Counts of the commands a single Redis server ran, from {@code INFO commandstats}.
 */
public final class CommandStats {

    private CommandStats() {
    }

    /** Calls per command, e.g. evalsha → 123. */
    public static Map<String, Long> calls(RedissonClient client) {
        Map<String, String> stats
                = client.getRedisNodes(RedisNodes.SINGLE).getInstance().info(RedisNode.InfoSection.COMMANDSTATS);
        return stats.entrySet().stream().collect(Collectors.toMap(e -> e.getKey().replace("cmdstat_", ""),
                e -> Arrays.stream(e.getValue().split(",")).filter(p -> p.startsWith("calls="))
                        .map(p -> Long.parseLong(p.substring(6)))
                        .findFirst().orElse(0L)));
    }
}
