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

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.api.redisnode.RedisNodes;
import org.redisson.config.Config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

@ExtendWith(RedisServerExtension.class)
class RedisServerExtensionTest {

    @Test
    void serverAtRedisUrlAnswersPing() {
        Config config = new Config();
        config.useSingleServer()
                .setAddress(RedisServerExtension.redisUrl())
                .setConnectionMinimumIdleSize(1)
                .setConnectionPoolSize(1);
        RedissonClient client = Redisson.create(config);
        try {
            assertThat(client.getRedisNodes(RedisNodes.SINGLE).getInstance().ping()).isTrue();
        } finally {
            client.shutdown(0, 2, TimeUnit.SECONDS);
        }
    }

    @Test
    void privateProcessAnswersPingThroughItsCommandHelper() {
        assumeTrue(RedisServerExtension.process().isPresent(), "Redis is not a private process in this run");

        assertThat(RedisServerExtension.process().get().command("PING")).isEqualTo("PONG");
    }

    /** A class that stops Redis runs against a private process wherever the user did not choose the server. */
    @Nested
    @NeedsRedisProcess
    class ClassThatStopsRedis {

        @Test
        void getsThePrivateProcess() {
            assumeTrue(System.getenv(RedisServerExtension.REDIS_URL_ENV) == null, "the user chose the server");

            assertThat(RedisServerExtension.process()).hasValueSatisfying(
                    process -> assertThat(RedisServerExtension.redisUrl()).isEqualTo(process.uri()));
        }
    }

    @Test
    void versionIsRedis6Or7() {
        assertThat(RedisServerExtension.version()).matches("[67]\\..*");
    }
}
