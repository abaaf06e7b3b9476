package io.github.camelredisdelay.example;

import static org.assertj.core.api.Assertions.assertThat;

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

/**
 * The order deadline routes of {@code routes/orders.yaml} and {@code routes/orders.xml}, loaded by camel-main as
 * a user's route files are: a paid order's deadline is cancelled, an unpaid one expires.
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
        main = new Main();
        main.addOverrideProperty("camel.main.routes-include-pattern", "classpath:routes/" + routeFile);
        main.addOverrideProperty("camel.component.redis-delay.address", redis.uri());
        main.addOverrideProperty("camel.component.redis-delay.key-prefix", "dsl:" + routeFile);
        main.addOverrideProperty("orders.generate", "false");
        main.addOverrideProperty("orders.payment-deadline", "1s");
        main.start();
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
}
