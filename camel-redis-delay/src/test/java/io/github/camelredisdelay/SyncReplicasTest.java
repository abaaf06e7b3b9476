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
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import io.github.camelredisdelay.embedded.RedisServerOptions;
import io.github.camelredisdelay.internal.ScriptCalls;
import io.github.camelredisdelay.internal.ShardTags;
import io.github.camelredisdelay.migration.LegacyKeys;
import io.github.camelredisdelay.test.CamelNodes;
import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.MasterAndReplica;
import io.github.camelredisdelay.test.ProcessSignals;
import org.apache.camel.CamelContext;
import org.apache.camel.CamelExecutionException;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.RoutesBuilder;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * {@code syncReplicas}, {@code syncAof} and {@code syncTimeout} against a real master with one replica.
 */
class SyncReplicasTest {

    private static final String PREFIX = "sync";

    @RegisterExtension
    static final MasterAndReplica SERVERS = new MasterAndReplica(RedisServerOptions.defaults());

    private final List<String> delivered = new CopyOnWriteArrayList<>();
    private final CamelNodes nodes = new CamelNodes();

    @AfterEach
    void stopNodes() {
        nodes.close();
    }

    private ProducerTemplate node(String consumerUri) throws Exception {
        RoutesBuilder[] routes = consumerUri == null ? new RoutesBuilder[0] : new RoutesBuilder[] { new RouteBuilder() {
            @Override
            public void configure() {
                from(consumerUri)
                        .process(e -> delivered.add(e.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID, String.class)));
            }
        } };
        return start(routes).createProducerTemplate();
    }

    /** Starts a node on the master, with the class' key prefix. */
    private CamelContext start(RoutesBuilder... routes) throws Exception {
        return nodes.start(options -> {
            options.setAddress(SERVERS.master().uri());
            options.setKeyPrefix(PREFIX);
        }, routes);
    }

    @Test
    void aScheduleWithSyncReplicasIsOnTheReplicaWhenTheProducerReturns() throws Exception {
        ProducerTemplate producer = node(null);

        for (int i = 0; i < 20; i++) {
            producer.sendBodyAndHeader("redis-delay:synced?delay=1h&syncReplicas=1", "x", RedisDelayConstants.MESSAGE_ID,
                    "m-" + i);
            // read on the replica at once: WAIT made the producer wait until the replica had it
            assertThat(SERVERS.replica().command("HEXISTS", PREFIX + ":{synced}:msg", "m-" + i)).isEqualTo("1");
        }
    }

    @Test
    void aScheduleThatReachesTooFewReplicasFailsNamingTheShortfall() throws Exception {
        ProducerTemplate producer = node(null);

        // the one replica has a second to acknowledge, also on a busy machine right after its first sync
        assertThatThrownBy(() -> producer.sendBodyAndHeader("redis-delay:short?syncReplicas=2&syncTimeout=1000&delay=1h", "x",
                RedisDelayConstants.MESSAGE_ID, "m-1"))
                .isInstanceOf(CamelExecutionException.class).cause()
                .isInstanceOf(NotReplicatedException.class)
                .hasMessageContaining("m-1").hasMessageContaining("short").hasMessageContaining("reached 1 of 2")
                .hasMessageContaining("1000 ms");
    }

    @Test
    void aShortfallOnAShardedQueueNamesTheShardsHashTagWhoseMasterLacksReplicas() throws Exception {
        ProducerTemplate producer = node(null);
        // in a cluster each shard has a master of its own: the one short of replicas is the shard's
        String tag = ShardTags.of("spread", 3).get(ShardTags.shardOf("m-1", 3));

        assertThatThrownBy(
                () -> producer.sendBodyAndHeader("redis-delay:spread?shards=3&syncReplicas=2&syncTimeout=200&delay=1h",
                        "x", RedisDelayConstants.MESSAGE_ID, "m-1"))
                .isInstanceOf(CamelExecutionException.class).cause()
                .isInstanceOf(NotReplicatedException.class)
                .hasMessageContaining("message m-1 on queue spread (hash tag {" + tag + "}) reached")
                .extracting(failure -> ((NotReplicatedException) failure).getQueue()).isEqualTo("spread");
    }

    @Test
    void schedulesThatShareACallReachingTooFewReplicasEachFailNamingTheirOwnMessage() throws Exception {
        ProducerTemplate producer = node(null);
        String uri = "redis-delay:shared?syncReplicas=2&syncTimeout=500&delay=1h";
        List<String> ids = IntStream.range(0, 10).mapToObj(i -> "m-" + i).toList();

        // the first leaves alone and waits 500 ms for the missing replica: the others share the next call
        List<CompletableFuture<Exchange>> sent = ids.stream().map(id -> producer.asyncSend(uri,
                exchange -> exchange.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, id))).toList();

        for (int i = 0; i < ids.size(); i++) {
            Exchange exchange = sent.get(i).get(20, TimeUnit.SECONDS);
            assertThat(exchange.getException()).as(ids.get(i) + "'s failure").isInstanceOf(NotReplicatedException.class)
                    .hasMessageContaining("message " + ids.get(i) + " ")
                    // the replica may not have acknowledged within 500 ms on a busy machine right after its first sync
                    .hasMessageContaining(" of 2 required replicas");
        }
    }

    @Test
    void syncAofWithoutAppendOnlyFilesFailsNamingTheMissingFileNotANewerServer() throws Exception {
        ProducerTemplate producer = node(null);
        String uri = "redis-delay:aof?syncReplicas=1&syncAof=true&syncTimeout=500&delay=1h";
        boolean hasWaitAof = !SERVERS.master().command("COMMAND", "INFO", "WAITAOF").isBlank();

        // these servers keep no append-only file; SyncAofTest runs syncAof against servers that do
        if (hasWaitAof) {
            assertThatThrownBy(() -> producer.sendBody(uri, "x")).cause()
                    .hasMessageContaining("syncAof=true on queue aof needs an append-only file (appendonly yes)")
                    .hasMessageContaining("appendonly is disabled")
                    .as("this server has WAITAOF").hasMessageNotContaining("Redis 7.2 or later");
        } else {
            assertThatThrownBy(() -> producer.sendBody(uri, "x")).cause()
                    .hasMessageContaining("syncAof=true on queue aof needs Redis 7.2 or later (WAITAOF)");
        }
    }

    @Test
    void aConsumerWhoseServerCannotWaitForAppendOnlyFilesFailsToStartInsteadOfStallingAfterItsFirstBatch() {
        boolean hasWaitAof = !SERVERS.master().command("COMMAND", "INFO", "WAITAOF").isBlank();

        // these servers keep no append-only file, or have no WAITAOF: an acknowledgement could never be sent
        assertThatThrownBy(() -> start(syncAofConsumer("aofc"))).hasStackTraceContaining("syncAof=true on queue aofc")
                .hasStackTraceContaining(hasWaitAof ? "appendonly is disabled" : "needs Redis 7.2 or later (WAITAOF)");
    }

    @Test
    void aContextWhoseConsumerFailedToStartStopsWithoutAnError() {
        // Camel logs a service that fails to stop as a warning of its InternalServiceManager (package-private)
        try (LogLines stopping = LogLines.of("org.apache.camel.impl.engine.InternalServiceManager")) {
            assertThatThrownBy(() -> start(syncAofConsumer("aofs"))).hasStackTraceContaining("syncAof=true on queue aofs");
            nodes.close();

            assertThat(stopping.lines()).as("what stopping the context whose consumer failed to start logged").isEmpty();
        }
    }

    /** A route from {@code queue} with syncAof=true, which these servers without append-only files cannot serve. */
    private RouteBuilder syncAofConsumer(String queue) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:" + queue + "?syncReplicas=1&syncAof=true").process(e -> delivered.add("delivered"));
            }
        };
    }

    @Test
    void aDeadLetterWhoseFirstCopyReachedTooFewReplicasIsStoredOnce() throws Exception {
        String uri = "redis-delay:once?syncReplicas=1&syncTimeout=50&maxDeliveries=1&visibilityTimeout=3s";
        CamelContext context = start(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).routeId("failing").autoStartup(false).throwException(new IllegalStateException("boom"));
            }
        });
        context.createProducerTemplate().sendBodyAndHeader(uri, "x", RedisDelayConstants.MESSAGE_ID, "m-1");

        ProcessSignals.pause(SERVERS.replica());
        try (LogLines settlement = LogLines.of(Settlement.class)) {
            context.getRouteController().startRoute("failing");
            // the first dead-lettering stores its copy, then waits 50 ms for the stopped replica and fails: the
            // delivery is not acknowledged, and is dead-lettered again once its lease has expired (3 s: time for the
            // checks below on a loaded machine before that second dead-lettering finds its copy and acknowledges)
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> "1".equals(SERVERS.master().command("HEXISTS", PREFIX + ":{once.dead}:msg", "m-1")));
            await().atMost(Duration.ofSeconds(10)).until(() -> settlement.lines().stream()
                    .anyMatch(line -> line.startsWith("WARN Could not settle failed message m-1")
                            && line.contains(NotReplicatedException.class.getSimpleName())));
            assertThat(SERVERS.master().command("HEXISTS", PREFIX + ":{once}:msg", "m-1"))
                    .as("the failed dead-lettering left the original in place").isEqualTo("1");
        } finally {
            ProcessSignals.resume(SERVERS.replica());
        }

        await().atMost(Duration.ofSeconds(15))
                .until(() -> "0".equals(SERVERS.master().command("HLEN", PREFIX + ":{once}:msg")));
        assertThat(SERVERS.master().command("HKEYS", PREFIX + ":{once.dead}:msg")).isEqualTo("m-1");
    }

    @Test
    void anAcknowledgementThatReachesTooFewReplicasIsLoggedAsAShortfallNotAsRedisOutOfReach() throws Exception {
        String uri = "redis-delay:acks?syncReplicas=1&syncTimeout=100";
        ProducerTemplate producer = node(uri);
        // stored on master and replica; delivered (and acknowledged) once the replica is paused
        producer.sendBodyAndHeaders(uri, "x", Map.of(RedisDelayConstants.MESSAGE_ID, "m-1",
                RedisDelayConstants.DELAY, 2000));

        try (LogLines log = LogLines.of(ScriptCalls.class)) {
            ProcessSignals.pause(SERVERS.replica());
            try {
                await().atMost(Duration.ofSeconds(10)).until(() -> log.lines().stream()
                        .anyMatch(line -> line.startsWith("WARN") && line.contains("reached 0 of 1 required replicas")));
            } finally {
                ProcessSignals.resume(SERVERS.replica());
            }
            producer.sendBodyAndHeader(uri, "y", RedisDelayConstants.MESSAGE_ID, "m-2");
            await().atMost(Duration.ofSeconds(10)).until(() -> log.lines().stream().anyMatch(line -> line.startsWith("INFO")));

            // Redis answered every acknowledgement, and none is sent again: only the replica was behind
            assertThat(log.lines()).as("what the consumer's node logged of its acknowledgements")
                    .filteredOn(line -> line.startsWith("WARN") || line.startsWith("INFO")).isNotEmpty()
                    .noneMatch(line -> line.contains("reach Redis") || line.contains("retrying"));
        }
        assertThat(delivered).containsExactly("m-1", "m-2");
    }

    @Test
    void aMigrationWhoseWritesReachTooFewReplicasIsLoggedAsAShortfallNotAsRedisOutOfReach() throws Exception {
        String legacy = "legacy-sync";
        Config config = new Config();
        config.setCodec(StringCodec.INSTANCE);
        config.useSingleServer().setAddress(SERVERS.master().uri());
        RedissonClient redisson = Redisson.create(config);
        try (LogLines log = LogLines.of("io.github.camelredisdelay.LegacyMigration")) {
            ProcessSignals.pause(SERVERS.replica());
            try {
                new LegacyKeys(legacy, PREFIX).offerDueAt(redisson, "order-1", System.currentTimeMillis() - 1_000);
                node("redis-delay:migrated?migrateFrom=" + legacy + "&migrateCodec=string&syncReplicas=1&syncTimeout=100");
                await().atMost(Duration.ofSeconds(10)).until(() -> log.lines().stream()
                        .anyMatch(line -> line.startsWith("WARN") && line.contains("reached 0 of 1 required replicas")));
            } finally {
                ProcessSignals.resume(SERVERS.replica());
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> delivered.size() == 1);
            await().atMost(Duration.ofSeconds(10)).until(() -> log.lines().stream().anyMatch(line -> line.startsWith("INFO")));

            // Redis answered every step: the replica was behind, and the migration retried until it caught up
            assertThat(log.lines()).as("what the migration logged")
                    .filteredOn(line -> line.startsWith("WARN") || line.startsWith("INFO")).isNotEmpty()
                    .noneMatch(line -> line.contains("reach Redis"));
        } finally {
            redisson.shutdown();
        }
    }

    @Test
    void consumersAcknowledgeThroughSyncedWritesAndTheReplicaEndsEmpty() throws Exception {
        ProducerTemplate producer = node("redis-delay:acked?syncReplicas=1");
        List<String> ids = List.of("a", "b", "c", "d", "e");

        ids.forEach(
                id -> producer.sendBodyAndHeader("redis-delay:acked?syncReplicas=1", id, RedisDelayConstants.MESSAGE_ID, id));

        await().atMost(Duration.ofSeconds(10)).until(() -> delivered.size() >= ids.size());
        assertThat(delivered).containsExactlyInAnyOrderElementsOf(ids);
        await().atMost(Duration.ofSeconds(5))
                .until(() -> "0".equals(SERVERS.replica().command("HLEN", PREFIX + ":{acked}:msg")));
    }
}
