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
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.internal.TransferTask;
import io.github.camelredisdelay.test.HealthChecks;
import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The component never shuts down a RedissonClient it was given; when the application does while routes still use it,
 * readiness and the log say so, rather than blaming Redis.
 */
class ShutDownClientBeanTest extends RedisDelayTestSupport {

    @Test
    void readinessAndLogNameTheApplicationsShutDownClientNotRedisRefusing() throws Exception {
        Config config = new Config();
        config.useSingleServer().setAddress(RedisServerExtension.redisUrl());
        RedissonClient applications = Redisson.create(config);
        try (LogLines consumerLog = LogLines.of(RedisDelayConsumer.class);
             LogLines transferLog = LogLines.of(TransferTask.class)) {
            CountDownLatch delivered = new CountDownLatch(1);
            CamelContext node = createContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:orders").routeId("orders").process(exchange -> delivered.countDown());
                }
            });
            node.getComponent("redis-delay", RedisDelayComponent.class).getConfiguration().setRedissonClient(applications);
            HealthChecks.enableConsumersAndProducers(node);
            node.start();
            node.createProducerTemplate().sendBody("redis-delay:orders", "order 1");
            assertThat(delivered.await(10, TimeUnit.SECONDS)).as("delivered before the shutdown").isTrue();
            // acknowledged, so that no call of the consumer is under way as the client shuts down: a call in flight
            // then may be left without an answer by Redisson (noted, not this test's subject)
            await().atMost(Duration.ofSeconds(10)).until(() -> redis().getMap(key("orders", "msg")).isEmpty());

            applications.shutdown();

            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                Map<String, String> down = HealthChecks.downReasons(node);
                assertThat(down).containsOnlyKeys("consumer:orders", "producer:redis-delay-orders");
                assertThat(down.values()).allSatisfy(reason -> assertThat(reason)
                        .contains("client is shut down")
                        .doesNotContain("Redis refused")
                        .doesNotContain("refuses its writes"));
            });
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                assertThat(consumerLog.lines()).anySatisfy(line -> assertThat(line).startsWith("WARN")
                        .contains("Consumer of queue orders").contains("client is shut down"));
                assertThat(transferLog.lines()).anySatisfy(line -> assertThat(line).startsWith("WARN")
                        .contains("Transfer task of queue orders").contains("client is shut down"));
            });
            assertThat(consumerLog.lines()).noneSatisfy(line -> assertThat(line).contains("Redis replied"));
            assertThat(transferLog.lines()).noneSatisfy(line -> assertThat(line).contains("Redis replied"));
        } finally {
            applications.shutdown();
        }
    }

}
