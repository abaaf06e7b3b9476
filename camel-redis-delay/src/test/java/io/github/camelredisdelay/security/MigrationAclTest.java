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

import io.github.camelredisdelay.RedisDelayConfiguration;
import io.github.camelredisdelay.embedded.RedisBinary;
import io.github.camelredisdelay.migration.OldRedissonNode;
import io.github.camelredisdelay.security.AclRedisServer.User;
import io.github.camelredisdelay.test.CamelNodes;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A consumer with {@code migrateFrom} run by a Redis user that holds the component's rules ({@link ComponentAcl}) plus
 * the migration's rules for one legacy queue, while an old application (a user of its own, with every right) offers to
 * that RDelayedQueue: everything is migrated and delivered, and the server refuses nothing. A user without the
 * migration's rules is refused Redisson's keys.
 */
class MigrationAclTest {

    private static final String PASSWORD = "acl-test-secret";
    private static final String MIGRATING = "camel-delay-migrating";
    private static final String PLAIN = "camel-delay";
    private static final String OLD_APP = "old-app";
    private static final String LEGACY = "legacy-orders";

    private static AclRedisServer server;

    private final CamelNodes nodes = new CamelNodes();
    private final List<Object> delivered = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void startServer() {
        RedisBinary binary = TestRedisBinary.selected();
        String rules = ComponentAcl.rulesFor(TestRedisBinary.version(binary));
        server = AclRedisServer.start(binary, List.of(
                new User(MIGRATING, PASSWORD, rules + " " + ComponentAcl.migrationRulesFor(LEGACY)),
                new User(PLAIN, PASSWORD, rules),
                new User(OLD_APP, PASSWORD, "~* &* +@all")));
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @BeforeEach
    void forgetEarlierDenials() {
        server.forgetDenials();
    }

    @AfterEach
    void stopNodes() {
        nodes.close();
    }

    @Test
    void migratingConsumerMovesALiveRDelayedQueueWithTheDocumentedRules() throws Exception {
        try (OldRedissonNode old = new OldRedissonNode(server.address(), OLD_APP, PASSWORD, LEGACY)) {
            for (int i = 0; i < 10; i++) {
                old.offer("now-" + i, 0);
                old.offer("later-" + i, 1000);
            }
            // the old node's transfer task moves the due ones to the destination list: the migration takes both kinds
            await().atMost(Duration.ofSeconds(5)).until(() -> old.destinationSize() > 0);
            CamelContext node = nodes.start(options -> loggedInAs(options, MIGRATING), migratingConsumer());
            old.offer("offered-during-migration", 0);

            await().atMost(Duration.ofSeconds(15)).until(() -> delivered.size() == old.offered().size());
            assertThat(delivered).containsExactlyInAnyOrderElementsOf(old.offered());
            @SuppressWarnings("unchecked")
            Map<String, Object> stats = node.createProducerTemplate().requestBody("redis-delay:orders?operation=stats", null,
                    Map.class);
            assertThat(stats).containsEntry("migrationLeft", 0L);
        }
        nodes.close();
        assertThat(server.denials()).as("commands, keys or channels the server refused")
                .allMatch(denial -> denial.endsWith(ComponentAcl.REDISSON_CLUSTER_PROBE));
    }

    @Test
    void consumerWithoutTheMigrationRulesIsRefusedRedissonsKeys() throws Exception {
        try (OldRedissonNode old = new OldRedissonNode(server.address(), OLD_APP, PASSWORD, LEGACY)) {
            old.offer("stays", 60_000);
            nodes.start(options -> loggedInAs(options, PLAIN), migratingConsumer());

            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(server.denials())
                    .anyMatch(denial -> denial.startsWith(PLAIN + ": ") && denial.contains("redisson_delay_queue")));
            assertThat(delivered).isEmpty();
        }
        server.forgetDenials();
    }

    private RouteBuilder migratingConsumer() {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders?consumerType=polling&pollInterval=50&migrateFrom=" + LEGACY
                     + "&migrateCodec=string")
                        .process(exchange -> delivered.add(exchange.getMessage().getBody()));
            }
        };
    }

    private static void loggedInAs(RedisDelayConfiguration options, String user) {
        options.setAddress(server.address());
        options.setUsername(user);
        options.setPassword(PASSWORD);
    }
}
