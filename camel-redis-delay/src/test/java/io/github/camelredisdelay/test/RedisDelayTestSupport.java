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
package io.github.camelredisdelay.test;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.RedisDelayComponent;
import io.github.camelredisdelay.RedisDelayConfiguration;
import org.apache.camel.CamelContext;
import org.apache.camel.RoutesBuilder;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.main.Main;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;
import org.redisson.config.ConstantDelay;

/**
 * Base of the tests that run CamelContexts against the real Redis of {@link RedisServerExtension}. Each test gets its
 * own key prefix, so tests never see each other's keys; every context a test starts is stopped after it.
 */
@ExtendWith({ RedisServerExtension.class, ThreadDumpOnTimeout.class })
public abstract class RedisDelayTestSupport {

    /** Key prefix of this test's queues. */
    protected final String keyPrefix = "test:" + UUID.randomUUID().toString().substring(0, 8);

    /** One per server URL: a class marked {@link NeedsRedisProcess} may run against another server than the rest. */
    private static final Map<String, RedissonClient> SHARED_CLIENTS = new ConcurrentHashMap<>();

    private final List<CamelContext> contexts = new ArrayList<>();
    private RedissonClient redis;

    /** A local port nothing listens on (its socket just closed): a Redis address there refuses connections at once. */
    protected static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /**
     * Starts a CamelContext (think: one node) whose redis-delay component talks to the test Redis.
     */
    protected CamelContext startContext(RoutesBuilder... routes) throws Exception {
        CamelContext context = createContext(routes);
        context.start();
        return context;
    }

    /**
     * Starts a CamelContext like {@link #startContext} whose routes from these endpoints fail every delivery with an
     * {@link IllegalStateException} of this message, with no error handler: retries and dead letters are the queue's.
     */
    protected CamelContext startFailingConsumers(String failure, String... uris) throws Exception {
        return startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                for (String uri : uris) {
                    from(uri).process(e -> {
                        throw new IllegalStateException(failure);
                    });
                }
            }
        });
    }

    /**
     * A Camel Main, not started, configured as application.properties would configure it: the component's
     * {@code address} (the test Redis) and {@code key-prefix} (this test's), then {@code properties} (names after
     * {@code camel.component.redis-delay.}, values as a properties file gives them), which may replace those two.
     */
    protected Main camelMain(Map<String, String> properties, RoutesBuilder routes) {
        Properties all = new Properties();
        all.setProperty("camel.component.redis-delay.address", RedisServerExtension.redisUrl());
        all.setProperty("camel.component.redis-delay.key-prefix", keyPrefix);
        properties.forEach((name, value) -> all.setProperty("camel.component.redis-delay." + name, value));
        Main main = new Main();
        main.setOverrideProperties(all);
        main.configure().addRoutesBuilder(routes);
        return main;
    }

    /**
     * Creates, without starting, a CamelContext configured like {@link #startContext}.
     */
    protected CamelContext createContext(RoutesBuilder... routes) throws Exception {
        CamelContext context = new DefaultCamelContext();
        context.getShutdownStrategy().setTimeout(10);
        RedisDelayComponent component = new RedisDelayComponent();
        if (usesSharedClient()) {
            component.getConfiguration().setRedissonClient(sharedClient());
        } else {
            connectOnItsOwn(component.getConfiguration());
        }
        component.getConfiguration().setKeyPrefix(keyPrefix);
        context.addComponent("redis-delay", component);
        for (RoutesBuilder route : routes) {
            context.addRoutes(route);
        }
        contexts.add(context);
        return context;
    }

    /**
     * Whether the contexts of this test use one RedissonClient bean shared by the tests of the class (fast: no client
     * to create and shut down per context), or let the component create its own from the address.
     */
    protected boolean usesSharedClient() {
        return true;
    }

    /**
     * Tells a component that does not use the shared client how to connect on its own: by default, the test server's
     * address.
     */
    protected void connectOnItsOwn(RedisDelayConfiguration configuration) {
        configuration.setAddress(RedisServerExtension.redisUrl());
    }

    private static RedissonClient sharedClient() {
        return SHARED_CLIENTS.computeIfAbsent(RedisServerExtension.redisUrl(), url -> {
            Config config = new Config();
            config.setCodec(StringCodec.INSTANCE);
            // retries as the component's own client does: few, so outages surface to the back-off that survives them
            config.useSingleServer().setAddress(url).setRetryAttempts(1)
                    .setRetryDelay(new ConstantDelay(Duration.ofMillis(200)));
            return Redisson.create(config);
        });
    }

    /**
     * Shuts the shared client of the class's server down: under Maven each test class runs against a Redis of its own,
     * so the client is of no use afterwards, and left running it would keep reconnecting to a server that is gone.
     */
    @AfterAll
    static void shutDownSharedClient() {
        RedissonClient client = SHARED_CLIENTS.remove(RedisServerExtension.redisUrl());
        if (client != null) {
            client.shutdown(0, 2, TimeUnit.SECONDS);
        }
    }

    /**
     * A client of the test's own, for looking at Redis directly; text codec, shut down after the test.
     */
    protected RedissonClient redis() {
        if (redis == null) {
            Config config = new Config();
            config.setCodec(StringCodec.INSTANCE);
            config.useSingleServer().setAddress(RedisServerExtension.redisUrl()).setConnectionMinimumIdleSize(1);
            redis = Redisson.create(config);
        }
        return redis;
    }

    /** The due set of a test queue, read and written behind the component's back. */
    protected DueSet dueSet(String queue) {
        return new DueSet(redis(), key(queue, "due"));
    }

    /** The key of one of a test queue's structures, e.g. {@code key("orders", "due")}. */
    protected String key(String queue, String structure) {
        return keyPrefix + ":{" + queue + "}:" + structure;
    }

    @AfterEach
    void stopContextsAndClient() {
        for (CamelContext context : contexts) {
            context.stop();
        }
        for (CamelContext context : contexts) {
            ComponentThreads.assertNoneLeftOf(context);
        }
        contexts.clear();
        if (redis != null) {
            redis.shutdown(0, 2, TimeUnit.SECONDS);
            redis = null;
        }
    }
}
