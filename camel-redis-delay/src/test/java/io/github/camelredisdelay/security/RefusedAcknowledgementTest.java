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
package io.github.camelredisdelay.security;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import io.github.camelredisdelay.RedisDelayConfiguration;
import io.github.camelredisdelay.embedded.RedisBinary;
import io.github.camelredisdelay.test.CamelNodes;
import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A consumer acknowledges finished messages and reads the next ones in one pipeline. When Redis refuses the
 * acknowledgement (a script) but answers the read, as while a cluster slot moves ({@code TRYAGAIN}), the messages read
 * must still reach the route: left unread in the consumer's pending list they would come back only after their lease,
 * counted as an expired lease, and with {@code maxDeliveries=1} go to the dead-letter queue without being processed.
 * Here the user's scripts are refused through its ACL, which refuses {@code EVALSHA} and answers {@code XREADGROUP}.
 */
class RefusedAcknowledgementTest {

    private static final String USER = "camel-delay";
    private static final String PASSWORD = "refused-ack-secret";

    private static AclRedisServer server;

    private final CamelNodes nodes = new CamelNodes();

    @BeforeAll
    static void startServer() {
        RedisBinary binary = TestRedisBinary.selected();
        server = AclRedisServer.start(binary, USER, PASSWORD, "~* &* +@all");
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @AfterEach
    void stopNodes() {
        nodes.close();
    }

    @Test
    void messagesReadBesideARefusedAcknowledgementReachTheRoute() throws Exception {
        CountDownLatch firstHeld = new CountDownLatch(1);
        CountDownLatch releaseFirst = new CountDownLatch(1);
        List<String> delivered = new CopyOnWriteArrayList<>();
        List<String> deadLettered = new CopyOnWriteArrayList<>();
        CamelContext node = nodes.start(this::loggedIn, new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders?maxDeliveries=1&visibilityTimeout=3000").process(exchange -> {
                    String body = exchange.getMessage().getBody(String.class);
                    delivered.add(body);
                    if (body.equals("first")) {
                        firstHeld.countDown();
                        releaseFirst.await(20, TimeUnit.SECONDS);
                    }
                });
                from("redis-delay:orders.dead")
                        .process(exchange -> deadLettered.add(exchange.getMessage().getBody(String.class)));
            }
        });
        ProducerTemplate producer = node.createProducerTemplate();
        List<String> next = IntStream.rangeClosed(1, 5).mapToObj(i -> "next-" + i).toList();

        producer.sendBody("redis-delay:orders", "first");
        assertThat(firstHeld.await(10, TimeUnit.SECONDS)).as("the route holds the first message").isTrue();
        next.forEach(body -> producer.sendBody("redis-delay:orders", body));
        RedissonClient observer = observer();
        try {
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> observer.getStream("camel:delay:{orders}:ready").size() == 1 + next.size());
        } finally {
            observer.shutdown();
        }

        // from here on the first message's acknowledgement is refused, the read beside it answered
        server.changeRules(USER, "-evalsha", "-eval");
        releaseFirst.countDown();
        try {
            await().atMost(Duration.ofSeconds(10)).untilAsserted(
                    () -> assertThat(delivered).as("messages read beside the refused acknowledgement").containsAll(next));
        } finally {
            server.changeRules(USER, "+evalsha", "+eval");
        }

        // every message is acknowledged once scripts are answered again, none after an expired lease
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(
                producer.requestBody("redis-delay:orders?operation=stats", null, Map.class))
                .containsEntry("scheduled", 0L).containsEntry("ready", 0L).containsEntry("inFlight", 0L));
        assertThat(deadLettered).as("dead-lettered without being processed").isEmpty();
        assertThat(delivered).containsExactlyInAnyOrderElementsOf(
                Stream.concat(Stream.of("first"), next.stream()).toList());
    }

    /** A client of the component's user, to look at the ready stream. */
    private static RedissonClient observer() {
        Config config = new Config();
        config.setCodec(StringCodec.INSTANCE);
        config.setUsername(USER).setPassword(PASSWORD);
        config.useSingleServer().setAddress(server.address());
        return Redisson.create(config);
    }

    private void loggedIn(RedisDelayConfiguration options) {
        options.setAddress(server.address());
        options.setUsername(USER);
        options.setPassword(PASSWORD);
    }
}
