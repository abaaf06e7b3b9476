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
        Map<String, String> stats = client.getRedisNodes(RedisNodes.SINGLE).getInstance().info(RedisNode.InfoSection.COMMANDSTATS);
        return stats.entrySet().stream().collect(Collectors.toMap(e -> e.getKey().replace("cmdstat_", ""),
                e -> Arrays.stream(e.getValue().split(",")).filter(p -> p.startsWith("calls=")).map(p -> Long.parseLong(p.substring(6)))
                        .findFirst().orElse(0L)));
    }
}
