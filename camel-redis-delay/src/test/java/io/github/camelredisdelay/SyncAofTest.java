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
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.embedded.RedisServerOptions;
import io.github.camelredisdelay.test.CamelNodes;
import io.github.camelredisdelay.test.HealthChecks;
import io.github.camelredisdelay.test.MasterAndReplica;
import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.health.HealthCheck;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * {@code syncAof=true} against a master and a replica that both keep an append-only file: the branch that needs
 * {@code WAITAOF} (Redis 7.2 command set). Runs in the Valkey 8 pass only (surefire execution {@code valkey-8}), and
 * fails there, rather than passing, if the server has no {@code WAITAOF}.
 */
class SyncAofTest {

    private static final String PREFIX = "aof";

    @RegisterExtension
    static final MasterAndReplica SERVERS = new MasterAndReplica(RedisServerOptions.defaults().withAppendOnly(true));

    private final List<String> delivered = new CopyOnWriteArrayList<>();
    private final CamelNodes nodes = new CamelNodes();

    @AfterEach
    void stopNodes() {
        nodes.close();
    }

    @Test
    void theServerHasWaitAofAndAppendOnlyFiles() {
        assertThat(SERVERS.master().command("COMMAND", "INFO", "WAITAOF")).as("WAITAOF on " + SERVERS.master().version())
                .isNotBlank();
        assertThat(SERVERS.master().command("INFO", "persistence")).contains("aof_enabled:1");
        assertThat(SERVERS.replica().command("INFO", "persistence")).contains("aof_enabled:1");
    }

    @Test
    void aScheduleWithSyncAofReturnsOnceTheReplicaHasItAndTheConsumerAcknowledgesThroughSyncedWrites() throws Exception {
        String uri = "redis-delay:orders?syncReplicas=1&syncAof=true&syncTimeout=5s";
        ProducerTemplate producer = nodes.start(options -> {
            options.setAddress(SERVERS.master().uri());
            options.setKeyPrefix(PREFIX);
        }, new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).routeId("aof-consumer")
                        .process(e -> delivered.add(e.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID, String.class)));
            }
        }).createProducerTemplate();

        producer.sendBodyAndHeader(uri + "&delay=1h", "later", RedisDelayConstants.MESSAGE_ID, "later-1");
        // read on the replica at once: WAITAOF returned only once the replica had it in its append-only file
        assertThat(SERVERS.replica().command("HEXISTS", PREFIX + ":{orders}:msg", "later-1")).isEqualTo("1");

        List<String> ids = List.of("a", "b", "c");
        ids.forEach(id -> producer.sendBodyAndHeader(uri, id, RedisDelayConstants.MESSAGE_ID, id));
        await().atMost(Duration.ofSeconds(10)).until(() -> delivered.size() >= ids.size());
        assertThat(delivered).containsExactlyInAnyOrderElementsOf(ids);
        await().atMost(Duration.ofSeconds(5))
                .until(() -> "1".equals(SERVERS.replica().command("HLEN", PREFIX + ":{orders}:msg")));
    }

    @Test
    void aScheduleWhoseReplicaKeepsNoAppendOnlyFileFailsNamingTheAppendOnlyFilesNotJustTheReplicas() throws Exception {
        String uri = "redis-delay:unfiled?syncReplicas=1&syncAof=true&syncTimeout=500&delay=1h";
        ProducerTemplate producer = nodes.start(options -> {
            options.setAddress(SERVERS.master().uri());
            options.setKeyPrefix(PREFIX);
        }).createProducerTemplate();
        withReplicaWithoutAppendOnlyFile(() -> {
            assertThatThrownBy(() -> producer.sendBodyAndHeader(uri, "x", RedisDelayConstants.MESSAGE_ID, "u-1")).cause()
                    .isInstanceOf(NotReplicatedException.class)
                    .hasMessageContaining("reached 0 of 1")
                    .as("the replica has the write, linked and in sync; what it lacks is an append-only file")
                    .hasMessageContaining("append-only file");
            // the replica gets the write over its link (on a loaded machine it may apply it after the timeout)
            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(SERVERS.replica().command("HEXISTS", PREFIX + ":{unfiled}:msg", "u-1"))
                            .isEqualTo("1"));
        });
    }

    @Test
    void readinessOfAProducerWhoseReplicaKeepsNoAppendOnlyFileNamesTheAppendOnlyFiles() throws Exception {
        String uri = "redis-delay:unfiled-health?syncReplicas=1&syncAof=true&syncTimeout=1500&delay=1h";
        CamelContext node = nodes.create(options -> {
            options.setAddress(SERVERS.master().uri());
            options.setKeyPrefix(PREFIX);
        }, new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:order").to(uri);
            }
        });
        HealthChecks.enableConsumersAndProducers(node);
        node.start();
        HealthCheck producerCheck = HealthChecks.producerCheck(node);
        await().atMost(Duration.ofSeconds(10)).until(() -> producerCheck.call().getState() == HealthCheck.State.UP);

        withReplicaWithoutAppendOnlyFile(() -> {
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                HealthCheck.Result result = producerCheck.call();
                assertThat(result.getState()).isEqualTo(HealthCheck.State.DOWN);
                assertThat(result.getMessage().orElse("")).as("DOWN while the replica is linked and in sync: it keeps no "
                                                              + "append-only file, which WAITAOF counts")
                        .contains("reached 0 of").contains("append-only file").contains("appendonly yes");
            });
        });
    }

    /** Runs {@code check} while the replica, linked and in sync, keeps no append-only file; turns it on again after. */
    private static void withReplicaWithoutAppendOnlyFile(ThrowingRunnable check) throws Exception {
        SERVERS.replica().command("CONFIG", "SET", "appendonly", "no");
        try {
            check.run();
        } finally {
            SERVERS.replica().command("CONFIG", "SET", "appendonly", "yes");
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                String persistence = SERVERS.replica().command("INFO", "persistence");
                // a rewrite that waits for another child (a BGSAVE) is scheduled, not yet in progress
                return persistence.contains("aof_enabled:1") && persistence.contains("aof_rewrite_in_progress:0")
                        && persistence.contains("aof_rewrite_scheduled:0");
            });
        }
    }

    /** A check that may throw. */
    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }
}
