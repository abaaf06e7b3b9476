package io.github.camelredisdelay.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RFuture;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;
import org.redisson.config.ConstantDelay;

class ClientShortageLogTest extends RedisDelayTestSupport {

    @Test
    void anExhaustedConnectionPoolIsLoggedAsAClientShortageNamingThePoolSettingNotAsRedisUnreachable() throws Exception {
        Config config = new Config();
        config.setCodec(StringCodec.INSTANCE);
        config.useSingleServer().setAddress(RedisServerExtension.redisUrl()).setConnectionPoolSize(1)
                .setConnectionMinimumIdleSize(1).setRetryAttempts(1).setRetryDelay(new ConstantDelay(Duration.ofMillis(100)));
        RedissonClient client = Redisson.create(config);
        try {
            // the pool's only connection waits in a blocking pop, as a starved pool's connections do
            RFuture<String> parked = client.<String>getBlockingQueue(keyPrefix + ":parked").pollAsync(3, TimeUnit.SECONDS);
            QueueShard queue = new QueueShard(client, QueueKeys.of(keyPrefix, "starved"));
            Throwable failure = catchThrowable(() -> queue.group().readNew("c1", 1, null));
            parked.toCompletableFuture().get(10, TimeUnit.SECONDS);

            OutageLogTest.Lines lines = new OutageLogTest.Lines();
            new OutageLog(lines.logger, "Consumer of queue starved").failed(failure);

            assertThat(failure).as("Redisson's pool-exhaustion error").hasMessageContaining("Unable to acquire connection");
            assertThat(lines.lines).singleElement().satisfies(line -> assertThat(line).startsWith("WARN")
                    .doesNotContain("cannot reach Redis"));
            assertThat(ClientShortage.advice(failure)).contains("connectionPoolSize").contains("not a Redis outage");
        } finally {
            client.shutdown(0, 2, TimeUnit.SECONDS);
        }
    }
}
