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
package io.github.camelredisdelay;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.HealthChecks;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.health.HealthCheck;
import org.apache.camel.health.HealthCheckHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RFuture;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.redisson.config.ConstantDelay;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A readiness check whose write finds no free connection in the client's pool (every connection busy for longer than
 * the client waits for one, as many queues' calls through a slow link keep them): Redis is fine, so the check must say
 * that the client ran short and name the settings that help, not that Redis does not answer or refuses writes. So also
 * when the client waits for a connection longer than the check waits for its write, as Redisson's default retry
 * settings (an application's own {@code RedissonClient} bean) make it.
 */
@CamelSide
class PoolShortageReadinessTest extends RedisDelayTestSupport {

    private RedissonClient client;

    /** A pool of one connection; with {@code fewRetries}, the component's own client's retries, else Redisson's. */
    private static Config smallPool(boolean fewRetries) {
        Config config = new Config();
        var server = config.useSingleServer().setAddress(RedisServerExtension.redisUrl()).setConnectionPoolSize(1)
                .setConnectionMinimumIdleSize(1);
        if (fewRetries) {
            server.setRetryAttempts(1).setRetryDelay(new ConstantDelay(Duration.ofMillis(100)));
        }
        return config;
    }

    @AfterEach
    void shutDownClient() {
        if (client != null) {
            client.shutdown(0, 2, TimeUnit.SECONDS);
        }
    }

    @Override
    protected boolean usesSharedClient() {
        return false;
    }

    @Override
    protected void connectOnItsOwn(RedisDelayConfiguration configuration) {
        configuration.setRedissonClient(client);
    }

    @Test
    void aCheckWhoseWriteFindsNoFreeConnectionBlamesTheClientsPoolNotRedis() throws Exception {
        assertThat(downWhileThePoolIsParked(true, Duration.ofSeconds(3))).hasValueSatisfying(
                message -> assertThat(message).contains("pool is too small").contains("connectionPoolSize")
                        .contains("retryDelay").doesNotContain("does not answer"));
    }

    @Test
    void aCheckWhoseWriteStillWaitsForAConnectionOnRedissonsDefaultRetriesBlamesTheClientsPoolNotRedis()
            throws Exception {
        // Redisson's defaults wait for a free connection a retryDelay (1-2 s) per attempt, four attempts: longer than
        // the check waits for its write, so the write has neither an answer nor a failure when the check gives up
        assertThat(downWhileThePoolIsParked(false, Duration.ofSeconds(4))).hasValueSatisfying(
                message -> assertThat(message).contains("connectionPoolSize").contains("retryDelay")
                        .doesNotContain("does not answer"));
    }

    /** The message of the only DOWN readiness check while the pool's only connection waits in a blocking pop. */
    private Optional<String> downWhileThePoolIsParked(boolean fewRetries, Duration parked) throws Exception {
        client = Redisson.create(smallPool(fewRetries));
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:busy").log("${body}");
            }
        });
        HealthChecks.enableConsumersAndProducers(context);
        // the pool's only connection waits in a blocking pop, as a pool whose calls each wait a long round trip does
        RFuture<Object> parking = client.getBlockingQueue(keyPrefix + ":parked").pollAsync(parked.toSeconds(),
                TimeUnit.SECONDS);

        List<HealthCheck.Result> down = HealthCheckHelper.invokeReadiness(context).stream()
                .filter(result -> result.getState() == HealthCheck.State.DOWN).toList();
        parking.toCompletableFuture().get(10, TimeUnit.SECONDS);

        assertThat(down).hasSize(1);
        return down.get(0).getMessage();
    }
}
