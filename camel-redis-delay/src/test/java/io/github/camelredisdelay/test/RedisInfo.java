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

import java.util.concurrent.TimeUnit;

import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.api.redisnode.RedisNode;
import org.redisson.api.redisnode.RedisNodes;
import org.redisson.config.Config;

/**
 * Asks a server that is not our own process for its version, through Redisson so that a {@code REDIS_URL} with a
 * password or {@code rediss://} works too.
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
                throw new IllegalStateException(
                        "Redis at " + RunningRedis.withoutPassword(url)
                                                + " reports no redis_version");
            }
            return version;
        } finally {
            client.shutdown(0, 2, TimeUnit.SECONDS);
        }
    }
}
