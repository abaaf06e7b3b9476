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
package io.github.camelredisdelay.internal;

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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

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
            QueueShard queue = new QueueShard(ConnectedClient.borrowed(client), QueueKeys.of(keyPrefix, "starved"));
            Throwable failure = catchThrowable(() -> queue.group().readNew("c1", 1, null));
            parked.toCompletableFuture().get(10, TimeUnit.SECONDS);

            OutageLogTest.Lines lines = new OutageLogTest.Lines();
            new OutageLog(lines.logger, "Consumer of queue starved").failed(failure);

            assertThat(failure).as("Redisson's pool-exhaustion error").hasMessageContaining("Unable to acquire connection");
            assertThat(lines.lines).singleElement().satisfies(line -> assertThat(line).startsWith("WARN")
                    .doesNotContain("cannot reach Redis"));
            // with retries (here one, 100 ms apart) Redisson waits for a free connection retryDelay per attempt, not its
            // timeout: a pool that runs short on a slow link (each call holds a connection for a round trip) is helped by
            // a larger pool or retryDelay, not by a larger timeout
            assertThat(ClientShortage.advice(failure)).contains("connectionPoolSize").contains("pool is too small")
                    .contains("retryDelay").doesNotContain("(or timeout)");
        } finally {
            client.shutdown(0, 2, TimeUnit.SECONDS);
        }
    }
}
