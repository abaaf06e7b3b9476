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

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.internal.QueueShard;
import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ServiceStatus;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.spi.ExceptionHandler;
import org.apache.camel.support.LoggingExceptionHandler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.redisson.client.RedisConnectionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@CamelSide
class RedisUnavailableTest extends RedisDelayTestSupport {

    @Override
    protected boolean usesSharedClient() {
        // the endpoint's address must count: the component creates the client
        return false;
    }

    @Test
    void contextStartsAndStopsWhileRedisIsUnreachableAndProducersFailFast() throws Exception {
        int closedPort = closedPort();
        String uri = "redis-delay:orders?address=redis://127.0.0.1:" + closedPort;
        CamelContext node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).process(e -> e.getMessage().setBody("done"));
            }
        });

        CompletableFuture.runAsync(node::start).get(30, TimeUnit.SECONDS);
        assertThat(node.getRouteController().getRouteStatus(node.getRoutes().get(0).getRouteId()))
                .isEqualTo(ServiceStatus.Started);

        Exchange sent = node.createProducerTemplate().send(uri, e -> e.getMessage().setBody("x"));
        assertThat(sent.getException()).as("the Redis error reaches the route").isNotNull();

        CompletableFuture.runAsync(node::stop).get(30, TimeUnit.SECONDS);
        assertThat(node.isStopped()).isTrue();
    }

    @Test
    void aShardedQueueThatChecksTheAppendOnlyFileAtStartWaitsForOneUnansweredCheckNotOnePerShard() throws Exception {
        // each check waits out the client's attempts on the starting thread: one per shard, sixteen on one server
        String uri = "redis-delay:orders?shards=16&syncReplicas=1&syncAof=true&address=redis://127.0.0.1:" + closedPort();
        CamelContext node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).log("${body}");
            }
        });

        try (LogLines shardLog = LogLines.of(QueueShard.class)) {
            CompletableFuture.runAsync(node::start).get(60, TimeUnit.SECONDS);
            assertThat(shardLog.lines()).filteredOn(line -> line.contains("syncAof")).singleElement().asString()
                    .contains("queue orders", "starts unchecked");
        }
        assertThat(node.getRouteController().getRouteStatus(node.getRoutes().get(0).getRouteId()))
                .isEqualTo(ServiceStatus.Started);
        CompletableFuture.runAsync(node::stop).get(30, TimeUnit.SECONDS);
    }

    @Test
    void whileRedisIsUnreachableTheRetriesOfAQueuesLoopsShareTheirAttemptsToConnect() throws Exception {
        int closedPort = closedPort();
        CamelContext node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                for (int queue = 0; queue < 5; queue++) {
                    from("redis-delay:orders-" + queue + "?address=redis://127.0.0.1:" + closedPort).log("${body}");
                }
            }
        });
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long before = threads.getTotalStartedThreadCount();

        node.start();

        // each attempt to connect creates a Redisson client (about 30 threads) and takes it down again; found: the
        // transfer tasks, consumers and subscription retrying at once made about 150 threads a second, and 10 % of a
        // core, for as long as Redis stayed away; shared, about 40 a second. The count is the JVM's, so what else runs
        // in it meanwhile adds to it (212 in 4 s once): over 6 s, at most 75 a second. The count only grows, so the
        // wait may end well after the 6 s (a busy machine delays the polls) without letting a higher rate pass
        await().during(Duration.ofSeconds(6)).atMost(Duration.ofSeconds(15))
                .untilAsserted(() -> assertThat(threads.getTotalStartedThreadCount() - before)
                        .as("threads started since the context started").isLessThan(6 * 75));
    }

    @ParameterizedTest
    @EnumSource(ConsumerType.class)
    void aConsumersOwnExceptionHandlerIsToldThatItCannotFetch(ConsumerType type) throws Exception {
        int closedPort = closedPort();
        List<String> handled = new CopyOnWriteArrayList<>();
        CamelContext node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders?exceptionHandler=#alerts&consumerType=" + type + "&address=redis://127.0.0.1:"
                     + closedPort).log("${body}");
            }
        });
        node.getRegistry().bind("alerts", (ExceptionHandler) new LoggingExceptionHandler(node, getClass()) {
            @Override
            public void handleException(String message, Exchange exchange, Throwable exception) {
                handled.add(message);
            }
        });

        CompletableFuture.runAsync(node::start).get(30, TimeUnit.SECONDS);

        await().atMost(Duration.ofSeconds(20)).until(() -> !handled.isEmpty());
        assertThat(handled.get(0)).contains("queue orders");
        CompletableFuture.runAsync(node::stop).get(30, TimeUnit.SECONDS);
    }

    /**
     * Before an endpoint ever reached Redis its first check of the queue cannot answer either: the operation fails with
     * Redis' own error, as producers do while Redis is down, not with a message about the queue's shard count.
     */
    @ParameterizedTest
    @ValueSource(strings = { "", "&synchronous=true" })
    void aScheduleBeforeRedisWasEverReachedFailsWithRedisOwnError(String options) throws Exception {
        int closedPort = closedPort();
        CamelContext node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:schedule").to("redis-delay:orders?address=redis://127.0.0.1:" + closedPort + options);
            }
        });
        CompletableFuture.runAsync(node::start).get(30, TimeUnit.SECONDS);

        Exchange sent = node.createProducerTemplate().send("direct:schedule", e -> e.getMessage().setBody("x"));

        assertThat(sent.getException()).isInstanceOf(RedisConnectionException.class)
                .hasMessageNotContaining("shard count");
    }
}
