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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.apache.camel.CamelContext;
import org.apache.camel.Processor;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Spring Boot application told to stop (a rolling deployment's SIGTERM, say) while its Redis does not answer: with
 * the application's RedissonClient bean as Redisson's defaults make it (as redisson-spring-boot-starter does), each
 * Redis call is tried again for several seconds. The consumers know Redis is down, so their stop must not wait for such
 * calls one queue after another, which made the close take several seconds per queue and outlast a Kubernetes grace
 * period (30 s by default) with a handful of queues, cutting short the graceful stop of everything else in the
 * application.
 */
class ShutdownWhileRedisIsDownTest {

    private static final int QUEUES = 4;
    /** The server outlives each application, so that it can be down while the application closes. */
    @RegisterExtension
    static final ClassRedis redis = new ClassRedis();
    /** Messages the routes of {@link HoldingApp} hold until released. */
    private static final CountDownLatch held = new CountDownLatch(QUEUES);
    private static final CountDownLatch release = new CountDownLatch(1);
    /** Routes whose consumer has failed to fetch (bridgeErrorHandler hands the failure to the route). */
    private static final Set<String> failedToFetch = ConcurrentHashMap.newKeySet();

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {

        /** Redisson's defaults: calls tried again for several seconds while Redis does not answer. */
        @Bean(destroyMethod = "shutdown")
        RedissonClient redisson() {
            Config config = new Config();
            config.useSingleServer().setAddress(redis.server().uri());
            return Redisson.create(config);
        }

        @Bean
        RouteBuilder consumers() {
            return consumersOf("down-", "queue-", exchange -> {
            });
        }
    }

    /**
     * {@value #QUEUES} routes from the queues {@code <queuePrefix>0..}, with ids {@code <routePrefix>0..}, that record
     * a failed fetch (bridgeErrorHandler hands it to the route) and otherwise run {@code step}.
     */
    private static RouteBuilder consumersOf(String queuePrefix, String routePrefix, Processor step) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                for (int i = 0; i < QUEUES; i++) {
                    String routeId = routePrefix + i;
                    from("redis-delay:" + queuePrefix + i + "?bridgeErrorHandler=true").routeId(routeId)
                            .onException(Exception.class).handled(true).process(e -> failedToFetch.add(routeId)).end()
                            .process(step);
                }
            }
        };
    }

    /** Routes that hold their message until released. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class HoldingApp extends App {

        @Override
        @Bean
        RouteBuilder consumers() {
            return consumersOf("held-", "holding-", exchange -> {
                held.countDown();
                release.await(30, TimeUnit.SECONDS);
            });
        }
    }

    @Test
    void anApplicationWhoseRedisIsDownClosesWithoutWaitingForRedisQueueAfterQueue() {
        Duration took = timeToCloseAfter(App.class, context -> {
            redis.server().stop();
            await("every consumer has found Redis down").atMost(Duration.ofSeconds(60))
                    .until(() -> failedToFetch.size() == QUEUES);
        });

        assertThat(took).as("time the application took to close with %d queues", QUEUES)
                .isLessThan(Duration.ofSeconds(15));
    }

    /**
     * Exchanges that finished while Redis was down could not be acknowledged; a consumer that knows Redis is down must
     * not try again at its stop, waiting for the client's retries queue after queue: the lease timer keeps trying in
     * the background, as after a stop whose acknowledgement failed, and what is not acknowledged is delivered again.
     */
    @Test
    void anApplicationWhoseExchangesFinishedWhileRedisWasDownClosesWithoutWaitingForRedisQueueAfterQueue() {
        Duration took = timeToCloseAfter(HoldingApp.class, context -> {
            ProducerTemplate producer = context.getBean(CamelContext.class).createProducerTemplate();
            for (int i = 0; i < QUEUES; i++) {
                producer.sendBody("redis-delay:held-" + i, "held " + i);
            }
            await("every route holds its message").atMost(Duration.ofSeconds(30)).until(() -> held.getCount() == 0);
            redis.server().stop();
            release.countDown();
            await("every consumer has found Redis down after its exchange").atMost(Duration.ofSeconds(60))
                    .until(() -> failedToFetch.stream().filter(route -> route.startsWith("holding-")).count() == QUEUES);
        });

        assertThat(took).as("time the application took to close with %d queues", QUEUES)
                .isLessThan(Duration.ofSeconds(15));
    }

    /**
     * Redis stops answering just before the stop (a paused server, a path that drops packets): the component page
     * promises a consumer waits at most 5 s for a read Redis leaves unanswered and then leaves its consumer group
     * without waiting, so the close must not wait for the client's retries queue after queue either.
     */
    @Test
    void anApplicationWhoseRedisJustStoppedAnsweringClosesWithoutWaitingForRedisQueueAfterQueue() {
        Duration took = timeToCloseAfter(App.class, context -> RedisSignals.pause(redis.server()));

        assertThat(took).as("time the application took to close with %d queues", QUEUES)
                .isLessThan(Duration.ofSeconds(15));
    }

    /**
     * Consumers idle between reads when Redis stops answering each have no read under way to tell them, nor must they
     * wait for the client's retries of their leaving the consumer group (about 20 s with Redisson's defaults): the
     * first to stop finds out within 2 s, and the others must not each wait as long again, queue after queue.
     */
    @Test
    void anApplicationWithIdleQueuesWhoseRedisJustStoppedAnsweringClosesWithoutWaitingQueueAfterQueue() {
        Duration took = timeToCloseAfter(App.class, ShutdownWhileRedisIsDownTest::pauseRedisBetweenReads);

        assertThat(took).as("time the application took to close with %d idle queues", QUEUES)
                .isLessThan(Duration.ofSeconds(10));
    }

    /**
     * Pauses Redis once the consumers are past their first reads, which the client's first connection slows: they then
     * wait between reads of their idle queues.
     */
    private static void pauseRedisBetweenReads(ConfigurableApplicationContext context) {
        CamelContext camel = context.getBean(CamelContext.class);
        await("a few reads of the idle queues").pollDelay(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10))
                .until(() -> camel.getRoutes().stream()
                        .allMatch(route -> camel.getRouteController().getRouteStatus(route.getRouteId()).isStarted()));
        RedisSignals.pause(redis.server());
    }

    /**
     * Runs the application {@code app}, lets {@code outage} take its Redis down, and returns how long closing the
     * application then took; Redis is resumed, if paused, and started again afterwards.
     */
    private static Duration timeToCloseAfter(Class<?> app, Consumer<ConfigurableApplicationContext> outage) {
        ConfigurableApplicationContext context = new SpringApplicationBuilder(app)
                .properties("spring.config.name=shutdown-while-redis-is-down-test").run();
        Duration took;
        try {
            outage.accept(context);
        } finally {
            long closing = System.nanoTime();
            context.close();
            took = Duration.ofNanos(System.nanoTime() - closing);
            RedisSignals.resume(redis.server());
            redis.server().restart();
        }
        return took;
    }
}
