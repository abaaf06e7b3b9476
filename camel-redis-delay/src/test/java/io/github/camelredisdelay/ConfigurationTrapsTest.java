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
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.embedded.RedisBinary;
import io.github.camelredisdelay.embedded.RedisServerOptions;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.internal.EvictionPolicyCheck;
import io.github.camelredisdelay.internal.TransferTask;
import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.apache.camel.CamelContext;
import org.apache.camel.CamelExecutionException;
import org.apache.camel.Message;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.main.Main;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * Configurations and inputs that used to go wrong in silence: durations Camel reads as 0, an ambiguous client, bodies
 * that are numbers, due times before 1970, and a Redis that may evict the queue's keys.
 */
@CamelSide
class ConfigurationTrapsTest extends RedisDelayTestSupport {

    private final List<Message> deliveries = new CopyOnWriteArrayList<>();

    @ParameterizedTest
    @ValueSource(strings = { "delay", "visibility-timeout", "pollInterval", "transferInterval", "sync-timeout" })
    void componentDurationThatCamelWouldReadAsZeroFailsStartupNamingOptionAndValue(String option) {
        Main main = new Main();
        main.addInitialProperty("camel.component.redis-delay.address", RedisServerExtension.redisUrl());
        main.addInitialProperty("camel.component.redis-delay." + option, "30M");
        try {
            assertThatThrownBy(main::start).rootCause().isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(option.replace("-t", "T") + " option of component redis-delay")
                    .hasMessageContaining("'30M'").hasMessageContaining("30m");
        } finally {
            main.stop();
        }
    }

    @Test
    void componentDurationsInAcceptedFormsAreReadExactly() throws Exception {
        Main main = new Main();
        main.addInitialProperty("camel.component.redis-delay.address", RedisServerExtension.redisUrl());
        main.addInitialProperty("camel.component.redis-delay.delay", "1h30m");
        main.addInitialProperty("camel.component.redis-delay.visibility-timeout", "PT45S");
        try {
            main.start();
            RedisDelayConfiguration options = main.getCamelContext().getComponent("redis-delay", RedisDelayComponent.class)
                    .getConfiguration();
            assertThat(options.getDelay()).isEqualTo(TimeUnit.MINUTES.toMillis(90));
            assertThat(options.getVisibilityTimeout()).isEqualTo(45_000);
        } finally {
            main.stop();
        }
    }

    @Test
    void severalRedissonClientBeansAndNoneChosenFailStartupNamingThem() throws Exception {
        RedissonClient cache = client();
        RedissonClient queues = client();
        try {
            CamelContext context
                    = contextSendingTo("redis-delay:orders", Map.of("cacheClient", cache, "queueClient", queues), null);

            assertThatThrownBy(context::start).rootCause().isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("orders").hasMessageContaining("[cacheClient, queueClient]")
                    .hasMessageContaining("redissonClient=#bean:");
            context.stop();
        } finally {
            cache.shutdown();
            queues.shutdown();
        }
    }

    @Test
    void aClientChosenByNameAmongSeveralIsUsed() throws Exception {
        RedissonClient cache = client();
        RedissonClient queues = client();
        try (CamelContext context
                = contextSendingTo("redis-delay:orders?redissonClient=#bean:queueClient&keyPrefix=" + keyPrefix,
                        Map.of("cacheClient", cache, "queueClient", queues), null)) {
            context.start();

            context.createProducerTemplate().sendBody("direct:in", "order-1");

            assertThat(redis().getMap(key("orders", "msg")).size()).isEqualTo(1);
        } finally {
            cache.shutdown();
            queues.shutdown();
        }
    }

    @Test
    void anAddressBesideTheOnlyRedissonClientBeanFailsTheStartupSayingWhichWins() throws Exception {
        RedissonClient cache = client();
        try {
            RedisDelayComponent component = new RedisDelayComponent();
            component.getConfiguration().setAddress("redis://queues.example:6379");
            // the application's only client, for its cache: Camel sets it on the component by itself (autowiring)
            CamelContext context = contextSendingTo("redis-delay:orders", Map.of("cacheClient", cache), component);

            assertThatThrownBy(context::start).rootCause().isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("orders").hasMessageContaining("redis://queues.example:6379")
                    .hasMessageContaining("autowiredEnabled=false");
            context.stop();
        } finally {
            cache.shutdown();
        }
    }

    @Test
    void anAddressIsUsedBesideTheOnlyRedissonClientBeanWhenAutowiringIsOff() throws Exception {
        RedissonClient cache = client();
        RedisDelayComponent component = new RedisDelayComponent();
        component.setAutowiredEnabled(false);
        component.getConfiguration().setAddress(RedisServerExtension.redisUrl());
        component.getConfiguration().setKeyPrefix(keyPrefix);
        try (CamelContext context = contextSendingTo("redis-delay:orders", Map.of("cacheClient", cache), component)) {
            context.start();

            context.createProducerTemplate().sendBody("direct:in", "order-1");

            assertThat(component.getConfiguration().getRedissonClient()).isNull();
            assertThat(redis().getMap(key("orders", "msg")).size()).isEqualTo(1);
        } finally {
            cache.shutdown();
        }
    }

    @Test
    void aClientSetBesideAnAddressFailsTheStartupWhenAutowiringIsOffToo() throws Exception {
        RedissonClient cache = client();
        RedisDelayComponent component = new RedisDelayComponent();
        component.setAutowiredEnabled(false);
        component.getConfiguration().setRedissonClient(cache);
        component.getConfiguration().setAddress("redis://queues.example:6379");
        try {
            CamelContext context = contextSendingTo("redis-delay:orders", Map.of(), component);

            assertThatThrownBy(context::start).rootCause().isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("orders").hasMessageContaining("redis://queues.example:6379")
                    .hasMessageContaining("remove").message().doesNotContain("autowiredEnabled=false");
            context.stop();
        } finally {
            cache.shutdown();
        }
    }

    @Test
    void anEndpointsOwnAddressReplacesTheClientOfTheComponent() throws Exception {
        RedisBinary binary
                = RedisBinary.select(System.getProperty(RedisServerExtension.BINARY_PROPERTY, RedisBinary.PATH_CHOICE));
        try (RedisServerProcess other = RedisServerProcess.start(binary, RedisServerOptions.defaults())) {
            // the component has a client (the test Redis); one endpoint names another Redis
            ProducerTemplate producer = startContext().createProducerTemplate();

            producer.sendBody("redis-delay:orders?delay=1h&address=" + other.uri(), "to the other Redis");

            assertThat(other.command("HLEN", keyPrefix + ":{orders}:msg")).isEqualTo("1");
            assertThat(redis().getMap(key("orders", "msg")).size()).isZero();
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = { true, false })
    void aDatabaseBesideTheOnlyRedissonClientBeanFailsTheStartupNamingIt(boolean onTheComponent) throws Exception {
        RedissonClient cache = client();
        try {
            RedisDelayComponent component = new RedisDelayComponent();
            if (onTheComponent) {
                component.getConfiguration().setDatabase(5);
            }
            // the application's only client, which Camel autowires: its own database is the one used
            CamelContext context = contextSendingTo(onTheComponent ? "redis-delay:orders" : "redis-delay:orders?database=5",
                    Map.of("cacheClient", cache), component);

            assertThatThrownBy(context::start).rootCause().isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("orders").hasMessageContaining("database=5")
                    .hasMessageContaining("RedissonClient");
            context.stop();
        } finally {
            cache.shutdown();
        }
    }

    @Test
    void anEndpointsOwnAddressIsUsedBesideTheOnlyRedissonClientBean() throws Exception {
        RedisBinary binary
                = RedisBinary.select(System.getProperty(RedisServerExtension.BINARY_PROPERTY, RedisBinary.PATH_CHOICE));
        RedissonClient cache = client();
        // the application's only client, which Camel autowires; one endpoint names another Redis
        try (RedisServerProcess other = RedisServerProcess.start(binary, RedisServerOptions.defaults());
             CamelContext context = contextSendingTo(
                     "redis-delay:orders?delay=1h&keyPrefix=" + keyPrefix + "&address=" + other.uri(),
                     Map.of("cacheClient", cache), null)) {
            context.start();

            context.createProducerTemplate().sendBody("direct:in", "to the other Redis");

            assertThat(other.command("HLEN", keyPrefix + ":{orders}:msg")).isEqualTo("1");
            assertThat(redis().getMap(key("orders", "msg")).size()).isZero();
        } finally {
            cache.shutdown();
        }
    }

    @ParameterizedTest
    @CsvSource({
            "localhost:6379, component", "http://queues.example:6379, component", "localhost:6379, endpoint",
            "http://queues.example:6379, endpoint" })
    void anAddressThatIsNoRedisUriFailsStartupNamingTheOptionTheValueAndTheAcceptedForms(String address, String where) {
        Main main = new Main();
        if ("component".equals(where)) {
            main.addInitialProperty("camel.component.redis-delay.address", address);
        }
        String uri = "redis-delay:orders" + ("endpoint".equals(where) ? "?address=" + address : "");
        main.configure().addRoutesBuilder(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:in").to(uri);
            }
        });
        try {
            assertThatThrownBy(main::start).rootCause().isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("address '" + address + "'").hasMessageContaining("queue orders")
                    .hasMessageContaining("redis://host:port").hasMessageContaining("rediss://");
        } finally {
            main.stop();
        }
    }

    @Test
    void anAddressWithoutAPortFailsStartupNamingItWithThePasswordMasked() throws Exception {
        CamelContext context = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:in").to("redis-delay:orders?address=redis://:s3cret@queues.example");
            }
        });

        assertThatThrownBy(context::start).rootCause().isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("address 'redis://:xxxxxx@queues.example'").hasMessageContaining("redis://host:port")
                .message().doesNotContain("s3cret");
    }

    /**
     * A value from an environment variable set from a file (a Kubernetes secret or ConfigMap key, a YAML block scalar)
     * may end with a line break, which camel-main keeps: a key prefix so read put the queues in another namespace than
     * that of the nodes configured elsewhere, in silence.
     */
    @ParameterizedTest
    @ValueSource(strings = { "shop:delay\n", " shop:delay", "shop:delay\t" })
    void aKeyPrefixWithBlanksAroundItFailsStartupNamingTheOption(String keyPrefix) {
        Main main = camelMain(Map.of("key-prefix", keyPrefix), new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:in").to("redis-delay:orders");
            }
        });
        try {
            assertThatThrownBy(main::start).as("key prefix '%s'", keyPrefix).rootCause()
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("keyPrefix")
                    .hasMessageContaining("queue orders");
        } finally {
            main.stop();
        }
    }

    /**
     * A Redis URI may name a database as its path ({@code redis://host:6379/3}, as many a {@code REDIS_URL} does), but
     * Redisson reads the address's host and port only: the queue went to database 0, where another application's keys
     * may be, instead of failing as an address that is not {@code redis://host:port} does.
     */
    @Test
    void anAddressNamingADatabaseFailsStartupInsteadOfConnectingToDatabase0() throws Exception {
        CamelContext context = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:in").to("redis-delay:orders?delay=1h&address=" + RedisServerExtension.redisUrl() + "/3");
            }
        });

        Throwable failure = catchThrowable(() -> {
            context.start();
            context.createProducerTemplate().sendBody("direct:in", "order-1");
        });

        assertThat(redis().getMap(key("orders", "msg")).size()).as("messages stored in database 0").isZero();
        assertThat(failure).rootCause().isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("address '" + RedisServerExtension.redisUrl() + "/3'")
                .hasMessageContaining("queue orders").hasMessageContaining("database=3");
    }

    /**
     * A context, not started, whose registry holds these RedissonClient beans, with this redis-delay component (or
     * Camel's default one, when {@code null}) and a route from direct:in to {@code uri}.
     */
    private static CamelContext contextSendingTo(String uri, Map<String, RedissonClient> beans, RedisDelayComponent component)
            throws Exception {
        CamelContext context = new DefaultCamelContext();
        beans.forEach((name, bean) -> context.getRegistry().bind(name, bean));
        if (component != null) {
            context.addComponent("redis-delay", component);
        }
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:in").to(uri);
            }
        });
        return context;
    }

    private static RedissonClient client() {
        Config config = new Config();
        config.useSingleServer().setAddress(RedisServerExtension.redisUrl()).setConnectionMinimumIdleSize(1);
        return Redisson.create(config);
    }

    /** Starts a context whose consumer records what the queue delivers. */
    private CamelContext startRecordingConsumer() throws Exception {
        return startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders").process(e -> deliveries.add(e.getMessage().copy()));
            }
        });
    }

    @Test
    void bodiesCamelTurnsIntoTextAreStoredAsText() throws Exception {
        var producer = startRecordingConsumer().createProducerTemplate();

        producer.sendBody("redis-delay:orders", 42);
        producer.sendBody("redis-delay:orders", new StringBuilder("order-7"));
        producer.sendBody("redis-delay:orders", TimeUnit.SECONDS);

        await().atMost(Duration.ofSeconds(10)).until(() -> deliveries.size() == 3);
        assertThat(deliveries).extracting(Message::getBody).containsExactlyInAnyOrder("42", "order-7", "SECONDS");
    }

    /** A body type Camel has no conversion for. */
    private static final class Basket {
    }

    @Test
    void bodyWithNoConversionToTextOrBytesFailsNamingItsTypeAndADataFormat() throws Exception {
        var producer = startRecordingConsumer().createProducerTemplate();

        assertThatThrownBy(() -> producer.sendBody("redis-delay:orders", new Basket()))
                .isInstanceOf(CamelExecutionException.class).cause()
                .hasMessageContaining(Basket.class.getName()).hasMessageContaining("marshal().json()");
    }

    @Test
    void dueTimeBefore1970MeansDueNow() throws Exception {
        var producer = startRecordingConsumer().createProducerTemplate();

        producer.sendBodyAndHeader("redis-delay:orders", "moon landing", RedisDelayConstants.DUE_AT,
                Instant.parse("1969-07-20T20:17:00Z"));
        producer.sendBodyAndHeader("redis-delay:orders", "as text", RedisDelayConstants.DUE_AT, "-14182940000");

        await().atMost(Duration.ofSeconds(10)).until(() -> deliveries.size() == 2);
        assertThat(deliveries).extracting(Message::getBody).containsExactlyInAnyOrder("moon landing", "as text");
    }

    @ParameterizedTest
    @ValueSource(strings = { "database=99", "password=wrong" })
    void aConnectionRedisRefusesIsLoggedAsRedisRefusingItNotAsRedisOutOfReach(String setting) throws Exception {
        try (LogLines log = LogLines.of(TransferTask.class)) {
            startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:orders?" + setting + "&address=" + RedisServerExtension.redisUrl()).log("${body}");
                }
            });

            await().atMost(Duration.ofSeconds(20)).until(() -> !log.lines().isEmpty());
            assertThat(log.lines().get(0)).startsWith("WARN").contains("queue orders", "error Redis replied")
                    .containsAnyOf("DB index is out of range", "AUTH", "WRONGPASS").doesNotContain("cannot reach Redis");
        }
    }

    @Test
    void concurrentConsumersOnAPollingConsumerThatPollsOnOneThreadIsNamedInAWarning() throws Exception {
        try (LogLines log = LogLines.of(RedisDelayScheduledPollConsumer.class)) {
            startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:orders?consumerType=polling&concurrentConsumers=4").log("${body}");
                }
            });

            assertThat(log.lines()).singleElement().asString().startsWith("WARN")
                    .contains("queue orders", "concurrentConsumers=4", "consumerType=polling", "consumerType=blocking");
        }
    }

    @Test
    void transferOptionsThatTheQueuesRunningTransferTaskDoesNotUseAreNamedInAWarning() throws Exception {
        try (LogLines log = LogLines.of(RedisDelayEndpoint.class)) {
            CamelContext context = startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from("direct:in").to("redis-delay:orders");
                }
            });
            // the queue's transfer task runs with the producer endpoint's (default) options
            context.addRoutes(new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:orders?transferInterval=100ms&transferBatchSize=1000").log("${body}");
                }
            });

            assertThat(log.lines()).singleElement().asString().startsWith("WARN")
                    .contains("queue orders", "transferInterval 100", "transferBatchSize 1000", "1000 ms", "100 messages");
        }
    }

    @Test
    void redisThatMayEvictTheQueueKeysIsNamedInOneWarning() throws Exception {
        setMemoryPolicy("allkeys-lru");
        try (LogLines log = LogLines.of(EvictionPolicyCheck.class)) {
            startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:orders").log("${body}");
                    from("redis-delay:payments").log("${body}");
                }
            });

            await().atMost(Duration.ofSeconds(10)).until(() -> !log.lines().isEmpty());
            assertThat(log.lines()).singleElement().asString().startsWith("WARN").contains("allkeys-lru", "noeviction");
        } finally {
            setMemoryPolicy("noeviction");
        }
    }

    @Test
    @Tag("slow")
    void maxmemoryPolicyChangedWhileTheQueueRunsIsNamedInAWarning() throws Exception {
        RedisBinary binary
                = RedisBinary.select(System.getProperty(RedisServerExtension.BINARY_PROPERTY, RedisBinary.PATH_CHOICE));
        try (RedisServerProcess other = RedisServerProcess.start(binary, RedisServerOptions.defaults());
             LogLines log = LogLines.of(EvictionPolicyCheck.class)) {
            other.command("CONFIG", "SET", "maxmemory-policy", "allkeys-lru");
            startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:orders?address=" + other.uri()).log("${body}");
                }
            });
            await("the warning at start").atMost(Duration.ofSeconds(10)).until(() -> !log.lines().isEmpty());

            // a managed Redis applies a parameter change at once, without closing connections
            other.command("CONFIG", "SET", "maxmemory-policy", "allkeys-lfu");

            await("a warning naming the new policy").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> log.lines().size() > 1);
            assertThat(log.lines()).hasSize(2).last().asString().startsWith("WARN").contains("orders", "allkeys-lfu");
        }
    }

    @Test
    void requireNoEvictionTurnsAnEvictingRedisIntoAStartupFailure() throws Exception {
        setMemoryPolicy("allkeys-lfu");
        try {
            CamelContext context = createContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from("direct:in").to("redis-delay:orders?requireNoEviction=true");
                }
            });

            assertThatThrownBy(context::start).rootCause().isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("orders").hasMessageContaining("allkeys-lfu").hasMessageContaining("noeviction");
        } finally {
            setMemoryPolicy("noeviction");
        }
    }

    private void setMemoryPolicy(String policy) {
        redis().getRedisNodes(org.redisson.api.redisnode.RedisNodes.SINGLE).getInstance()
                .setConfig("maxmemory-policy", policy);
    }
}
