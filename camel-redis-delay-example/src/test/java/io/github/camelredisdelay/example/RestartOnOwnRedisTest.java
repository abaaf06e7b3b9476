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
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.embedded.RedisBinary;
import io.github.camelredisdelay.embedded.RedisServerOptions;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's "stop and start the example and the deadlines scheduled before the stop are still delivered", on one's
 * own Redis: the second run's orders must not take the ids of the first run's orders still scheduled there, or a
 * payment of one run cancels the other run's deadline and a new order's deadline is kept as a duplicate.
 */
class RestartOnOwnRedisTest {

    private static final Duration RUN = Duration.ofSeconds(90);

    private final ExecutorService runner = Executors.newSingleThreadExecutor();
    private RedisServerProcess redis;

    @BeforeEach
    void startRedis() {
        redis = RedisServerProcess.start(RedisBinary.select(RedisBinary.PATH_CHOICE), RedisServerOptions.defaults());
    }

    @AfterEach
    void stopRedis() {
        runner.shutdownNow();
        redis.close();
    }

    @Test
    void theSecondRunsOrdersTakeNoIdOfTheFirstRun() throws Exception {
        OrderBook first = runFor(3);
        OrderBook second = runFor(3);

        Set<String> firstIds = first.orders().keySet();
        assertThat(firstIds).contains(first.orderId(1), first.orderId(2));
        assertThat(second.orders()).containsKeys(second.orderId(1), second.orderId(2));
        assertThat(firstIds).doesNotContain(second.orderId(1), second.orderId(2));
        // the first run's payments reach the second run, which records them; it never opens those orders again
        assertThat(second.orders().entrySet()).filteredOn(order -> firstIds.contains(order.getKey()))
                .extracting(Map.Entry::getValue).doesNotContain(OrderBook.Status.AWAITING_PAYMENT);
    }

    /** Runs the example on this test's Redis for {@code seconds}, with a deadline that outlives the run. */
    private OrderBook runFor(int seconds) throws Exception {
        OrderTimeoutApplication app = new OrderTimeoutApplication(name -> null);
        app.main().addOverrideProperty("camel.component.redis-delay.address", redis.uri());
        app.main().addOverrideProperty("camel.main.duration-max-seconds", Integer.toString(seconds));
        app.main().addOverrideProperty("orders.interval", "500ms");
        app.main().addOverrideProperty("orders.payment-deadline", "60s");
        runner.submit(() -> {
            app.run();
            return null;
        }).get(RUN.toSeconds(), TimeUnit.SECONDS);
        return app.orderBook();
    }
}
