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

import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;

import io.github.camelredisdelay.RedisDelayConsumer;
import io.github.camelredisdelay.embedded.RedisBinary;
import io.github.camelredisdelay.embedded.RedisServerOptions;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.internal.QueueKeys;
import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static io.github.camelredisdelay.faults.RefusingRedis.assertPlain;
import static io.github.camelredisdelay.faults.RefusingRedis.assertRefusalSaid;
import static io.github.camelredisdelay.faults.RefusingRedis.assertResumed;
import static io.github.camelredisdelay.faults.RefusingRedis.failure;
import static io.github.camelredisdelay.faults.RefusingRedis.node;
import static io.github.camelredisdelay.faults.RefusingRedis.refuses;
import static io.github.camelredisdelay.faults.RefusingRedis.scheduleDelivered;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Redis answers everyone LOADING (restarted, loading its dataset): a schedule fails saying so in plain words, naming
 * the message and the queue, and stores nothing; consumers and the transfer task log the reason once and resume by
 * themselves; readiness says what is going on; nothing is lost. The load is slowed down by {@code key-load-delay}
 * (Redis 6.2, 7 and Valkey 8 have it) to last until the test has seen what it checks (at most 9 s: a restart waits 10 s
 * for Redis to answer), and then sped up ({@code CONFIG SET
 * key-load-delay 0}, which Redis accepts while loading). Redis answers the commands that came meanwhile between chunks
 * of the load, every {@code loading-process-events-interval-bytes} (2 MB, fixed on Redis 6.2).
 */
class LoadingRedisTest extends FaultTestSupport {

    /**
     * The tag of a case that needs {@code loading-process-events-interval-bytes}, which Redis 6.2 lacks: the build's
     * Redis 6.2 pass excludes it.
     */
    static final String LOADING_EVENTS_INTERVAL = "loading-events-interval";

    /** What a schedule, the loops and readiness must say. */
    private static final String REASON = "loading its dataset";

    /**
     * Redis answers LOADING at once, as on a real load (2 MB load in milliseconds): 3,600 keys of 1 KB, 2.5 ms each (at
     * most 9 s), the commands answered after each key. Redis 6.2 answers only every 2 MB loaded, so a load that answers
     * at once and lasts seconds would need hundreds of MB there: its pass leaves this case out (the tag below).
     */
    @Test
    @Tag(LOADING_EVENTS_INTERVAL)
    void whileRedisLoadsAnsweringAtOnce() throws Exception {
        whileLoading(3_600, 1_000, 2_500, "--loading-process-events-interval-bytes", "1024");
    }

    /**
     * Redis answers LOADING only every second, later than the client waits for a new connection (its retryDelay, 200
     * ms), as a load of 2 MB chunks that each take longer does (a slow disk, large keys): 160 keys of 100 KB, 50 ms
     * each (at most 8 s), the commands answered every 20 keys.
     */
    @Test
    void whileRedisLoadsAnsweringSlowly() throws Exception {
        whileLoading(160, 100_000, 50_000);
    }

    private void whileLoading(int keys, int valueLength, int keyLoadMicros, String... args) throws Exception {
        RedisBinary binary
                = RedisBinary.select(System.getProperty(RedisServerExtension.BINARY_PROPERTY, RedisBinary.PATH_CHOICE));
        List<String> serverArgs = new ArrayList<>(List.of("--key-load-delay", String.valueOf(keyLoadMicros)));
        serverArgs.addAll(List.of(args));
        try (RedisServerProcess server = RedisServerProcess.start(binary,
                RedisServerOptions.defaults().withExtraArgs(serverArgs.toArray(String[]::new)))) {
            fill(server, keys, valueLength);
            DeliveryLog deliveries = DeliveryLog.inMemory();
            CamelContext node = node(server.uri(), keyPrefix, deliveries);
            try (LogLines consumerLog = LogLines.of(RedisDelayConsumer.class.getPackageName())) {
                ProducerTemplate producer = node.createProducerTemplate();
                scheduleDelivered(producer, deliveries, "before");
                // its acknowledgement goes with the consumer's next read: a snapshot taken before that holds it pending,
                // and the restart delivers it again, as it would after any write Redis lost
                await("before acknowledged").atMost(Duration.ofSeconds(10)).until(() -> "0".equals(
                        server.command("XPENDING", key(RefusingRedis.QUEUE, "ready"), QueueKeys.GROUP).lines().findFirst()
                                .orElse(null)));
                // the RDB file the restart loads, the queue's keys in it
                server.command("SAVE");
                server.stop();
                CompletableFuture<Void> restart = CompletableFuture.runAsync(server::restart);
                await("Redis answers LOADING").atMost(Duration.ofSeconds(30)).ignoreExceptions()
                        .until(() -> refuses(server, "LOADING"));
                Exception refused = failure(producer, "during");
                assertPlain(refused, "during", REASON);
                assertRefusalSaid(node, consumerLog, REASON);
                speedUp(server);
                await("Redis loaded").atMost(Duration.ofSeconds(30)).until(restart::isDone);
                restart.join();
                assertResumed(node, producer, deliveries);
            } finally {
                node.stop();
            }
        }
    }

    /** Ends the load's delay; Redis 6.2 allows no CONFIG SET while loading, so there the load runs its course. */
    private static void speedUp(RedisServerProcess server) {
        try {
            server.command("CONFIG", "SET", "key-load-delay", "0");
        } catch (IllegalStateException onlyConfigGetWhileLoading) {
            assertThat(onlyConfigGetWhileLoading).hasMessageContaining("Only CONFIG GET is allowed during loading");
        }
    }

    /** {@code keys} keys of incompressible text, as a real dataset is to the load. */
    private static void fill(RedisServerProcess server, int keys, int valueLength) {
        Random random = new Random(42);
        List<String> filler = new ArrayList<>(List.of("MSET"));
        for (int i = 0; i < keys; i++) {
            filler.add("filler:" + i);
            byte[] bytes = new byte[valueLength / 2];
            random.nextBytes(bytes);
            filler.add(HexFormat.of().formatHex(bytes));
        }
        server.command(filler.toArray(String[]::new));
    }
}
