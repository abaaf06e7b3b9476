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
package io.github.camelredisdelay.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;
import java.util.stream.IntStream;

import io.github.camelredisdelay.RedisDelayComponent;
import io.github.camelredisdelay.RedisDelayConfiguration;
import io.github.camelredisdelay.RedisDelayConstants;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.internal.ShardTags;
import io.github.camelredisdelay.security.ComponentAcl;
import io.github.camelredisdelay.test.CamelNodes;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.spi.BrowsableEndpoint;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Browse, peek, purge and redrive on a Redis Cluster, on queues with {@code shards=3} whose shards (and those of their
 * dead-letter queues) live on three masters: each operation reaches every shard, and a redrive moves dead letters
 * across slots without losing one.
 */
class ClusterOperateTest extends ClusterTestSupport {

    private static final String FAILING = "redis-delay:failing?shards=3&retrySchedule=100ms&maxDeliveries=1";
    private static final String HELD = "redis-delay:held?shards=3";
    /** A queue whose last shard's master evicts keys, in the one test that makes it so. */
    private static final String EVICTING = "evicting";
    private static final Set<String> POISON = ConcurrentHashMap.newKeySet();
    private static final Queue<String> DELIVERED = new ConcurrentLinkedQueue<>();
    private static ProducerTemplate template;

    @BeforeAll
    static void startConsumerNode() throws Exception {
        template = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(FAILING).process(e -> {
                    String body = e.getMessage().getBody(String.class);
                    if (POISON.contains(body)) {
                        throw new IllegalStateException("poison " + body);
                    }
                    DELIVERED.add(body);
                });
            }
        }).createProducerTemplate();
    }

    private static String state(String uri, String id) {
        return template.request(uri + "&operation=peek", e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, id))
                .getMessage().getHeader(RedisDelayConstants.STATE, String.class);
    }

    /**
     * One node of the cluster given as {@code address}: a single-server client would run the queues whose slots that
     * node serves, fail the others with MOVED, and follow no failover of the node. Refused, naming the address and what
     * to give instead.
     */
    @Test
    void aClusterNodeGivenAsASingleServerAddressIsRefusedNamingItAndTheClusterConfiguration() throws Exception {
        String address = masterOf("orders").uri();

        Exchange result = scheduleThroughASingleServerAddress(address, options -> {
        });

        assertThat(result.getException()).hasMessageContaining(address)
                .hasMessageContaining("Redis Cluster node").hasMessageContaining("clusterServersConfig");
    }

    /**
     * The same, logged in as a user with the rules docs/security.md gives (for this key prefix), which include
     * {@code INFO}: docs/cluster.md says only a user without {@code INFO} is not checked.
     */
    @Test
    void aClusterNodeGivenAsASingleServerAddressIsRefusedToTheUserOfTheSecurityGuide() throws Exception {
        RedisServerProcess master = masterOf("orders");
        String user = "guide-" + keyPrefix.substring(keyPrefix.indexOf(':') + 1);
        List<String> setUser = new ArrayList<>(List.of("ACL", "SETUSER", user, "reset", "on", ">secret"));
        setUser.addAll(List.of(ComponentAcl.rulesFor(master.version()).replace("camel:delay", keyPrefix).split(" ")));
        master.command(setUser.toArray(String[]::new));
        try {
            Exchange result = scheduleThroughASingleServerAddress(master.uri(), options -> {
                options.setUsername(user);
                options.setPassword("secret");
            });

            assertThat(result.getException()).hasMessageContaining(master.uri())
                    .hasMessageContaining("Redis Cluster node").hasMessageContaining("clusterServersConfig");
        } finally {
            master.command("ACL", "DELUSER", user);
        }
    }

    /** Schedules one message through a node whose client is given {@code address} as a single server. */
    private Exchange scheduleThroughASingleServerAddress(String address, Consumer<RedisDelayConfiguration> login)
            throws Exception {
        try (CamelNodes own = new CamelNodes()) {
            CamelContext node = own.create(options -> {
                options.setAddress(address);
                options.setKeyPrefix(keyPrefix);
                login.accept(options);
            }, new RouteBuilder() {
                @Override
                public void configure() {
                    from("direct:orders").to("redis-delay:orders");
                }
            });
            node.start();
            return node.createProducerTemplate().send("direct:orders", e -> e.getMessage().setBody("order"));
        }
    }

    @Test
    void browsePeekAndPurgeReachEveryShard() {
        List<String> ids = IntStream.range(0, 30).mapToObj(i -> "h" + i).toList();
        ids.forEach(id -> template.sendBodyAndHeader(HELD + "&delay=" + (3_600_000 + Integer.parseInt(id.substring(1)) * 1000),
                id, RedisDelayConstants.MESSAGE_ID, id));

        List<Exchange> browsed = template.getCamelContext().getEndpoint(HELD + "&browseLimit=10", BrowsableEndpoint.class)
                .getExchanges();
        assertThat(browsed).extracting(e -> e.getMessage().getBody()).containsExactlyElementsOf(ids.subList(0, 10));
        assertThat(ids).allSatisfy(id -> assertThat(state(HELD, id)).isEqualTo("scheduled"));
        Object removed = template.requestBodyAndHeader(HELD + "&operation=purge", null, RedisDelayConstants.CONFIRM, "held");

        assertThat(removed).isEqualTo(30L);
        assertThat(ids).allSatisfy(id -> assertThat(state(HELD, id)).isNull());
    }

    @Test
    void redriveMovesDeadLettersOfEveryShardBackWithoutLoss() {
        List<String> ids = IntStream.range(0, 30).mapToObj(i -> "d" + i).toList();
        POISON.addAll(ids);
        ids.forEach(id -> template.sendBodyAndHeader(FAILING, id, RedisDelayConstants.MESSAGE_ID, id));
        await().atMost(Duration.ofSeconds(20)).until(() -> ids.stream().allMatch(id -> "dead".equals(state(FAILING, id))));
        POISON.clear();

        Object moved = template.requestBody(FAILING + "&operation=redrive", (Object) null);

        assertThat(moved).isEqualTo(30L);
        await().atMost(Duration.ofSeconds(15)).until(() -> DELIVERED.containsAll(ids));
        assertThat(DELIVERED).hasSize(30);
    }

    @Test
    void anEndpointThatFailsToStartOnItsLastShardLeavesNoTransferTaskRunning() throws Exception {
        List<String> shards = ShardTags.of(EVICTING, 3);
        assertThat(shards.stream().map(ClusterTestSupport::masterOf).distinct()).hasSize(3);
        RedisServerProcess lastShardsMaster = masterOf(shards.get(2));
        CamelContext node = startContext();
        RedisDelayComponent component = node.getComponent("redis-delay", RedisDelayComponent.class);
        int running = component.runningTransferTasks();
        lastShardsMaster.command("CONFIG", "SET", "maxmemory-policy", "allkeys-lru");
        try {
            // added to a running context, which stays up when the route cannot start
            assertThatThrownBy(() -> node.addRoutes(new RouteBuilder() {
                @Override
                public void configure() {
                    from("direct:in").to("redis-delay:" + EVICTING + "?shards=3&requireNoEviction=true");
                }
            })).rootCause().hasMessageContaining("allkeys-lru");

            assertThat(node.isStarted()).isTrue();
            assertThat(component.runningTransferTasks()).isEqualTo(running);
        } finally {
            lastShardsMaster.command("CONFIG", "SET", "maxmemory-policy", "noeviction");
        }
    }
}
