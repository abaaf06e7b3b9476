package io.github.camelredisdelay.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.api.redisnode.RedisNodes;
import org.redisson.config.Config;

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

    @Test
    void versionIsRedis6Or7() {
        assertThat(RedisServerExtension.version()).matches("[67]\\..*");
    }
}
