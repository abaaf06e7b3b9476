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
package io.github.camelredisdelay.example;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.RedisDelayComponent;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import org.apache.camel.CamelContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Runs the example application as a user would, with its private redis-server, on shorter timings: a new order every
 * second, a 4 s payment deadline, payments after 1 s (in time) or 6 s (late).
 */
class OrderTimeoutApplicationTest {

    // Generous: on a busy two-core machine the first start of a CamelContext can take half a minute.
    private static final Duration STARTUP = Duration.ofSeconds(90);
    private static final Duration FLOW = Duration.ofSeconds(90);
    private static final Duration SHUTDOWN = Duration.ofSeconds(60);

    private final ExecutorService runner = Executors.newSingleThreadExecutor();
    private OrderTimeoutApplication app;
    private Future<?> running;

    @BeforeEach
    void createApplication() {
        // No environment: a REDIS_URL of the machine must not replace the private redis-server under test.
        app = new OrderTimeoutApplication(name -> null);
        app.main().addOverrideProperty("orders.interval", "1s");
        app.main().addOverrideProperty("orders.payment-deadline", "4s");
        app.main().addOverrideProperty("orders.pay-in-time-after", "1s");
        app.main().addOverrideProperty("orders.pay-late-after", "6s");
    }

    @AfterEach
    void stopApplication() throws Exception {
        if (running != null && !running.isDone()) {
            app.stop();
            running.get(SHUTDOWN.toSeconds(), TimeUnit.SECONDS);
        }
        runner.shutdownNow();
    }

    @Test
    void expiresUnpaidOrdersCancelsPaidOnesDeadLettersTheRejectedCallbackAndStopsItsRedis() throws Exception {
        running = runner.submit(() -> {
            app.run();
            return null;
        });
        RedisServerProcess redis = awaitStartedRedis();
        long redisPid = redis.pid();
        CamelContext context = app.main().getCamelContext();
        assertThat(context.getComponent("redis-delay", RedisDelayComponent.class).getConfiguration().getAddress())
                .isEqualTo(redis.uri());

        OrderBook book = app.orderBook();
        String order4 = book.orderId(4);
        await().atMost(FLOW).untilAsserted(() -> {
            assertThat(book.ordersWith(OrderBook.Status.PAID)).as("paid in time, deadline cancelled").isNotEmpty();
            assertThat(book.ordersWith(OrderBook.Status.REFUND_DUE)).as("paid late, cancel found nothing")
                    .isNotEmpty();
            assertThat(book.deliveries()).as("expired orders")
                    .anySatisfy(delivery -> assertThat(delivery.queue()).isEqualTo("orders"));
            assertThat(book.shopNotified()).as("callbacks that succeeded on their second delivery").isNotEmpty();
            assertThat(book.deadLetters()).as("the callback the shop always rejects").isNotEmpty();
        });

        assertThat(book.deliveries())
                .filteredOn(delivery -> delivery.queue().equals("orders"))
                .allSatisfy(expiry -> assertThat(book.ordersWith(OrderBook.Status.PAID))
                        .doesNotContain(expiry.messageId()));
        assertThat(book.deliveries())
                .filteredOn(delivery -> delivery.messageId().equals(order4) && delivery.queue().equals("callbacks"))
                .extracting(OrderBook.Delivery::deliveryCount)
                .containsExactly(1, 2, 3);
        assertThat(book.deadLetters().get(0)).satisfies(dead -> {
            assertThat(dead.orderId()).isEqualTo(order4);
            assertThat(dead.originalQueue()).isEqualTo("callbacks");
            assertThat(dead.lastError()).isEqualTo(ShopWebhook.ShopUnavailableException.class.getName()
                                                   + ": HTTP 410 Gone from the shop for " + order4);
        });
        // Redis and this JVM share the machine's clock: nothing may arrive before its due time.
        assertThat(book.deliveries()).allSatisfy(delivery -> assertThat(delivery.latenessMs())
                .as("lateness of %s", delivery).isGreaterThanOrEqualTo(-5L));

        app.stop();
        running.get(SHUTDOWN.toSeconds(), TimeUnit.SECONDS);

        assertThat(app.embeddedRedis()).isEmpty();
        assertThat(isAlive(redisPid)).as("redis-server pid %d alive", redisPid).isFalse();
    }

    @Test
    void stopsByItselfAfterTheConfiguredDuration() throws Exception {
        app.main().addOverrideProperty("camel.main.duration-max-seconds", "3");
        running = runner.submit(() -> {
            app.run();
            return null;
        });
        long redisPid = awaitStartedRedis().pid();

        running.get(SHUTDOWN.toSeconds(), TimeUnit.SECONDS);

        assertThat(app.orderBook().orders()).isNotEmpty();
        assertThat(isAlive(redisPid)).as("redis-server pid %d alive", redisPid).isFalse();
    }

    private RedisServerProcess awaitStartedRedis() {
        await().atMost(STARTUP).until(() -> {
            CamelContext context = app.main().getCamelContext();
            return context != null && context.isStarted() && app.embeddedRedis().isPresent();
        });
        return app.embeddedRedis().orElseThrow();
    }

    private static boolean isAlive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }
}
