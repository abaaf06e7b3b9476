package io.github.camelredisdelay.test;

import java.util.concurrent.TimeUnit;

import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.api.redisnode.RedisNode;
import org.redisson.api.redisnode.RedisNodes;
import org.redisson.config.Config;

/**
 * Asks a server that is not our own process for its version, through Redisson so that a {@code REDIS_URL}
 * with a password or {@code rediss://} works too.
 */
final class RedisInfo {

    private static final int TIMEOUT_MILLIS = 5_000;

    private RedisInfo() {
    }

    /**
     * The {@code redis_version} of the server at {@code url}.
     *
     * @throws IllegalStateException when it cannot be reached or does not report one
     */
    static String version(String url) {
        Config config = new Config();
        config.useSingleServer()
                .setAddress(url)
                .setConnectionMinimumIdleSize(1)
                .setConnectionPoolSize(1)
                .setSubscriptionConnectionMinimumIdleSize(0)
                .setConnectTimeout(TIMEOUT_MILLIS)
                .setTimeout(TIMEOUT_MILLIS)
                .setRetryAttempts(1);
        RedissonClient client;
        try {
            client = Redisson.create(config);
        } catch (RuntimeException e) {
            throw new IllegalStateException("Cannot reach Redis at " + RunningRedis.withoutPassword(url), e);
        }
        try {
            String version = client.getRedisNodes(RedisNodes.SINGLE).getInstance()
                    .info(RedisNode.InfoSection.SERVER)
                    .get("redis_version");
            if (version == null) {
                throw new IllegalStateException("Redis at " + RunningRedis.withoutPassword(url)
                        + " reports no redis_version");
            }
            return version;
        } finally {
            client.shutdown(0, 2, TimeUnit.SECONDS);
        }
    }
}
