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

import java.util.Optional;
import java.util.function.UnaryOperator;

import io.github.camelredisdelay.embedded.RedisServerProcess;
import org.apache.camel.main.Main;

/**
 * The order-timeout example: a camel-main application whose routes give every new order a payment deadline on a
 * {@code redis-delay} queue, cancel the deadline when the payment arrives, expire the orders nobody paid and tell the
 * shop through a flaky callback queue with retries and a dead-letter queue.
 * <p>
 * Configuration is read from {@code application.properties}; any key can be overridden with a system property or an
 * environment variable, as usual with camel-main. Which Redis it uses is decided by {@link ExampleRedis}.
 * <p>
 * Arguments are camel-main's, e.g. {@code -duration 60} to stop after 60 seconds (the same as the property
 * {@code camel.main.duration-max-seconds=60}); without them it runs until Ctrl-C.
 */
public final class OrderTimeoutApplication {

    private final Main main;
    private final OrderBook orderBook = new OrderBook();
    private final ExampleRedis redis;

    /**
     * @param environment reads environment variables; tests pass their own so the machine's {@code REDIS_URL} cannot
     *                    change what they test
     */
    public OrderTimeoutApplication(UnaryOperator<String> environment) {
        main = new Main();
        redis = new ExampleRedis(environment);
        main.addMainListener(redis);
        main.bind("orderBook", orderBook);
        main.configure().addRoutesBuilder(new OrderRoutes(orderBook, new ShopWebhook()));
    }

    public static void main(String[] args) throws Exception {
        new OrderTimeoutApplication(System::getenv).run(args);
    }

    /** Runs until Ctrl-C, the configured duration, or {@link #stop()}; the embedded Redis is stopped on the way out. */
    public void run(String... args) throws Exception {
        main.run(args);
    }

    /** Asks a running application to shut down; {@link #run} then returns. */
    public void stop() {
        main.completed();
    }

    /** The camel-main runtime, for tests and for adding properties before {@link #run}. */
    public Main main() {
        return main;
    }

    /** What happened to each order so far. */
    public OrderBook orderBook() {
        return orderBook;
    }

    /** The private redis-server, while it runs; empty when a Redis address was configured. */
    public Optional<RedisServerProcess> embeddedRedis() {
        return redis.embedded();
    }
}
