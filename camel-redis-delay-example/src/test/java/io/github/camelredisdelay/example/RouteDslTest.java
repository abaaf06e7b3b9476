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
import java.util.Map;
import java.util.UUID;

import io.github.camelredisdelay.embedded.RedisBinary;
import io.github.camelredisdelay.embedded.RedisServerOptions;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import org.apache.camel.ConsumerTemplate;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.main.Main;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The order deadline routes of {@code routes/orders.yaml} and {@code routes/orders.xml}, loaded by camel-main as a
 * user's route files are: a paid order's deadline is cancelled, an unpaid one expires.
 */
class RouteDslTest {

    private static final long RECEIVE_TIMEOUT_MS = 15_000;

    private static RedisServerProcess redis;
    private Main main;

    @BeforeAll
    static void startRedis() {
        redis = RedisServerProcess.start(RedisBinary.select(RedisBinary.PATH_CHOICE), RedisServerOptions.defaults());
    }

    @AfterAll
    static void stopRedis() {
        if (redis != null) {
            redis.close();
        }
    }

    @AfterEach
    void stopCamel() {
        if (main != null) {
            main.stop();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = { "orders.yaml", "orders.xml" })
    void aPaidOrdersDeadlineIsCancelledAndAnUnpaidOneExpires(String routeFile) throws Exception {
        start(routeFile, "seda:expired");
        ProducerTemplate producer = main.getCamelContext().createProducerTemplate();
        ConsumerTemplate consumer = main.getCamelContext().createConsumerTemplate();

        producer.sendBody("direct:placeOrder", "order-1");
        producer.sendBody("direct:placeOrder", "order-2");
        boolean cancelled = producer.requestBody("direct:pay", "order-1", Boolean.class);

        assertThat(cancelled).as("order-1 paid before its deadline").isTrue();
        assertThat(consumer.receiveBody("seda:expired", RECEIVE_TIMEOUT_MS, String.class)).isEqualTo("order-2");
        assertThat(consumer.receiveBodyNoWait("seda:expired", String.class)).as("nothing but order-2 expires").isNull();
        assertThat(main.getCamelContext().getRoutes()).extracting(route -> route.getRouteId())
                .contains("create-orders", "place-order", "pay-order", "expire-orders");
    }

    @ParameterizedTest
    @ValueSource(strings = { "orders.yaml", "orders.xml" })
    void anExpiredOrderIsSettledWhenNothingElseListens(String routeFile) throws Exception {
        start(routeFile, null);
        ProducerTemplate producer = main.getCamelContext().createProducerTemplate();

        producer.sendBody("direct:placeOrder", "order-3");

        await().atMost(Duration.ofMillis(RECEIVE_TIMEOUT_MS)).untilAsserted(
                () -> assertThat(producer.requestBody("redis-delay:orders?operation=stats", null, Map.class))
                        .as("neither scheduled, ready nor in flight")
                        .containsEntry("scheduled", 0L).containsEntry("ready", 0L).containsEntry("inFlight", 0L));
    }

    /** @param expiredUri where expired orders go, or {@code null} for the route files' default */
    private void start(String routeFile, String expiredUri) throws Exception {
        main = new Main();
        main.addOverrideProperty("camel.main.routes-include-pattern", "classpath:routes/" + routeFile);
        main.addOverrideProperty("camel.component.redis-delay.address", redis.uri());
        main.addOverrideProperty("camel.component.redis-delay.key-prefix", "dsl:" + routeFile + ":" + UUID.randomUUID());
        main.addOverrideProperty("orders.generate", "false");
        main.addOverrideProperty("orders.payment-deadline", "1s");
        if (expiredUri != null) {
            main.addOverrideProperty("orders.expired-uri", expiredUri);
        }
        main.start();
    }
}
