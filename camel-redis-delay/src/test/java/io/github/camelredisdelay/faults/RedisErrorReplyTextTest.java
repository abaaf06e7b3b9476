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
package io.github.camelredisdelay.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.github.camelredisdelay.RedisDelayConstants;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.test.HealthChecks;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.health.HealthCheck;
import org.junit.jupiter.api.Test;
import org.redisson.client.RedisOutOfMemoryException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Redis answers a producer's call with an error (out of memory, a read-only replica, writes stopped after a failed RDB
 * snapshot): the exchange fails with an exception that names the message, the queue and what Redis said, in plain
 * words, not Redisson's dump of the connection and of the script's source; readiness says the same.
 */
class RedisErrorReplyTextTest extends FaultTestSupport {

    @Test
    void aScheduleRedisRefusesForWantOfMemorySaysSo() throws Exception {
        ProducerTemplate producer = start().createProducerTemplate();
        whileOutOfMemory(() -> {
            Exception refused = schedule(producer, "m1");
            assertThat(refused).isInstanceOf(RedisOutOfMemoryException.class);
            assertPlain(refused.getMessage(), "m1", "Redis is out of memory", "maxmemory");
        });
    }

    /** A batch Redis refuses says so as plainly as a schedule of one message, naming the queue and the batch. */
    @Test
    void aScheduleBatchRedisRefusesForWantOfMemorySaysSo() throws Exception {
        ProducerTemplate producer = start().createProducerTemplate();
        whileOutOfMemory(() -> {
            Exchange done = producer.send("redis-delay:orders?delay=1h&operation=scheduleBatch",
                    e -> e.getMessage().setBody(List.of("a", "b")));
            assertThat(done.getException()).isInstanceOf(RedisOutOfMemoryException.class);
            assertThat(done.getException().getMessage()).contains("2 messages", "queue orders", "Redis is out of memory")
                    .doesNotContain("channel:", "CommandData", "-- camel-redis-delay").hasSizeLessThan(600);
        });
    }

    @Test
    void scheduleCancelAndRescheduleOnAReadOnlyReplicaSaySo() throws Exception {
        RedisServerProcess server = redisProcess();
        CamelContext node = start();
        ProducerTemplate producer = node.createProducerTemplate();
        producer.sendBodyAndHeader("redis-delay:orders?delay=1h", "kept", RedisDelayConstants.MESSAGE_ID, "m0");
        // demoted: a replica of a master that is not there keeps its data and refuses every write
        server.command("REPLICAOF", "127.0.0.1", "1");
        try {
            Exception refused = schedule(producer, "m1");
            // Redisson's type for the reply (RedisReadonlyException from Redis 7 on; 6.2 reports a script's READONLY as
            // an error the script raised, which Redisson does not tell apart)
            assertThat(refused).isExactlyInstanceOf(refused.getCause().getClass());
            assertPlain(refused.getMessage(), "m1", "read-only replica");
            assertPlain(failure(producer, "cancel", "m0").getMessage(), "m0", "read-only replica");
            assertPlain(failure(producer, "reschedule", "m0").getMessage(), "m0", "read-only replica");
            await("readiness DOWN").atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(HealthChecks.downReasons(node).values()).isNotEmpty()
                            .allSatisfy(reason -> assertThat(reason).contains("queue orders", "read-only replica")
                                    .doesNotContain("channel:", "camel-redis-delay probe.lua", "CommandData")));
        } finally {
            server.command("REPLICAOF", "NO", "ONE");
        }
        await("readiness UP").atMost(Duration.ofSeconds(10))
                .until(() -> HealthChecks.readiness(node).values().stream().allMatch(HealthCheck.State.UP::equals));
    }

    /** An id from untrusted input with a line break: a refusal names it escaped, as the logs do, forging no line. */
    @Test
    void aRefusalNamesAnIdWithALineBreakEscaped() throws Exception {
        RedisServerProcess server = redisProcess();
        ProducerTemplate producer = start().createProducerTemplate();
        // stored first: a cancel or reschedule of an id the replica does not hold writes nothing, and is not refused
        producer.sendBodyAndHeader("redis-delay:orders?delay=1h", "kept", RedisDelayConstants.MESSAGE_ID, "m1\nERROR forged");
        server.command("REPLICAOF", "127.0.0.1", "1");
        try {
            for (String operation : List.of("schedule", "cancel", "reschedule")) {
                assertThat(failure(producer, operation, "m1\nERROR forged").getMessage()).as(operation)
                        .contains("message m1\\nERROR forged").doesNotContain("\n");
            }
        } finally {
            server.command("REPLICAOF", "NO", "ONE");
        }
    }

    @Test
    void aScheduleRefusedAfterAFailedSnapshotSaysSo() throws Exception {
        RedisServerProcess server = redisProcess();
        ProducerTemplate producer = start().createProducerTemplate();
        // a directory where the snapshot goes: the BGSAVE cannot rename its file into place, and fails
        try {
            Files.createDirectories(server.directory().resolve("dump.rdb").resolve("in-the-way"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.command("CONFIG", "SET", "save", "3600 1");
        try {
            server.command("BGSAVE");
            await("the snapshot failed").atMost(Duration.ofSeconds(10))
                    .until(() -> server.command("INFO", "persistence").contains("rdb_last_bgsave_status:err"));
            assertPlain(schedule(producer, "m1").getMessage(), "m1", "snapshot", "stop-writes-on-bgsave-error");
        } finally {
            server.command("CONFIG", "SET", "save", "");
            Files.delete(server.directory().resolve("dump.rdb").resolve("in-the-way"));
            Files.delete(server.directory().resolve("dump.rdb"));
            server.command("BGSAVE");
            await("a snapshot succeeded").atMost(Duration.ofSeconds(10))
                    .until(() -> server.command("INFO", "persistence").contains("rdb_last_bgsave_status:ok"));
        }
    }

    /** Runs {@code refused} while the test's Redis has no memory left (maxmemory 1 byte, noeviction). */
    private void whileOutOfMemory(Runnable refused) {
        RedisServerProcess server = redisProcess();
        server.command("CONFIG", "SET", "maxmemory", "1");
        try {
            refused.run();
        } finally {
            server.command("CONFIG", "SET", "maxmemory", "0");
        }
    }

    private CamelContext start() throws Exception {
        CamelContext node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:unused").to("redis-delay:orders?delay=1h");
            }
        });
        HealthChecks.enableConsumersAndProducers(node);
        node.start();
        return node;
    }

    private static Exception schedule(ProducerTemplate producer, String id) {
        return failure(producer, "schedule", id);
    }

    private static Exception failure(ProducerTemplate producer, String operation, String id) {
        Exchange done = producer.send("redis-delay:orders?delay=1h&operation=" + operation,
                e -> e.getMessage().setHeaders(Map.of(RedisDelayConstants.MESSAGE_ID, id, RedisDelayConstants.DELAY, 60_000)));
        assertThat(done.getException()).as(operation + " of " + id).isNotNull();
        return done.getException();
    }

    private static void assertPlain(String message, String id, String... reason) {
        assertThat(message).contains("message " + id, "queue orders").contains(reason)
                .doesNotContain("channel:", "CommandData", "-- camel-redis-delay")
                .hasSizeLessThan(600);
    }
}
