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
package io.github.camelredisdelay.springboot;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.api.RedissonClient;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Spring Boot application stopped (a rolling deployment's SIGTERM) while a route works on a delivered message and the
 * consumer holds more it fetched with it: the exchange that finishes during the stop is acknowledged (the next instance
 * does not get it again), and the messages fetched but not routed are delivered by the next instance at once, not after
 * the visibility timeout; each message reaches a route exactly once.
 */
class InFlightAtShutdownTest {

    private static final int MESSAGES = 5;
    @RegisterExtension
    static final ClassRedis redis = new ClassRedis();
    /** Every delivery, of both applications, in order. */
    private static final List<String> deliveries = new CopyOnWriteArrayList<>();
    private static final CountDownLatch held = new CountDownLatch(1);
    private static final CountDownLatch release = new CountDownLatch(1);

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {

        @Bean(destroyMethod = "shutdown")
        RedissonClient redisson() {
            return TestRedis.client(redis.server());
        }

        @Bean
        RouteBuilder consumer() {
            return new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:work").routeId("work").process(e -> {
                        deliveries.add(e.getMessage().getBody(String.class));
                        if (held.getCount() > 0) {
                            held.countDown();
                            release.await(30, TimeUnit.SECONDS);
                        }
                    });
                }
            };
        }
    }

    private static ConfigurableApplicationContext run() {
        return new SpringApplicationBuilder(App.class)
                .properties("spring.config.name=in-flight-at-shutdown-test",
                        "camel.component.redis-delay.visibility-timeout=60s")
                .run();
    }

    @Test
    void anExchangeFinishingDuringTheStopIsAcknowledgedAndTheFetchedRestIsDeliveredOnceByTheNextInstance() {
        ConfigurableApplicationContext first = run();
        CamelContext camel = first.getBean(CamelContext.class);
        ProducerTemplate producer = camel.createProducerTemplate();
        // due together, so that one read fetches them all
        for (int i = 0; i < MESSAGES; i++) {
            producer.sendBody("redis-delay:work?delay=1s", "job " + i);
        }
        await("a route holds its first message").atMost(Duration.ofSeconds(20)).until(() -> held.getCount() == 0);

        CompletableFuture<Void> closing = CompletableFuture.runAsync(first::close);
        await("the stop has begun").atMost(Duration.ofSeconds(10)).until(camel::isStopping);
        release.countDown();
        await("the first application closed").atMost(Duration.ofSeconds(60)).until(closing::isDone);
        List<String> beforeRestart = List.copyOf(deliveries);

        try (ConfigurableApplicationContext second = run()) {
            await("every message delivered, well before the 60 s visibility timeout").atMost(Duration.ofSeconds(20))
                    .until(() -> deliveries.stream().distinct().count() == MESSAGES);
            await("no message delivered again").during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5))
                    .until(() -> deliveries.size() == MESSAGES);
        } finally {
            assertThat(deliveries).as("deliveries; the first application's: %s", beforeRestart)
                    .hasSize(MESSAGES).doesNotHaveDuplicates();
        }
    }
}
