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
package io.github.camelredisdelay.migration;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.LongSummaryStatistics;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.test.NeedsRedisProcess;
import io.github.camelredisdelay.test.PingLoop;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.github.camelredisdelay.test.RedisServerExtension;
import io.github.camelredisdelay.test.SlowCalls;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What migrating a big RDelayedQueue costs: N pending legacy messages (due in an hour) are migrated by a consumer with
 * {@code migrateFrom} while a {@link PingLoop} measures how long Redis keeps a client waiting and {@code SLOWLOG}
 * records every command over a millisecond. Time must grow linearly with N and no call may block Redis for more than
 * about 50 ms.
 * <p>
 * Not part of any other build: tagged {@code cost}, it runs with {@code -Pcost} (see the README's Tests section). The
 * sizes come from the system property {@value #SIZES_PROPERTY}, default {@code 100000,1000000}; the first is the
 * reference the others' rates are compared with. A migration of {@value #WARM_UP} messages runs first, unmeasured, so
 * that the first size is not the one that loads and compiles the code. It needs the private redis-server of the test
 * harness (it changes the server's slowlog settings).
 */
@Tag("cost")
@NeedsRedisProcess
class MigrationCostTest extends RedisDelayTestSupport {

    static final String SIZES_PROPERTY = "migration.cost.sizes";
    static final int WARM_UP = 20_000;

    private static final long MAX_BLOCK_MS = 50;
    /** Slower commands are logged: enough to see how close to the limit the longest come. */
    private static final long SLOWLOG_OVER_MICROS = 1_000;
    private static final long EVENTS_OVER_MS = 10;
    /** The largest rate drop from the smallest size to the largest that still counts as linear on a shared machine. */
    private static final double MIN_RATE_RATIO = 0.5;
    private static final long DUE_IN_MS = TimeUnit.HOURS.toMillis(1);
    private static final String PADDING = "-".repeat(48);
    private static final Duration IDLE_PINGING = Duration.ofSeconds(3);

    /** One size's figures. */
    record Run(int size, Duration load, Duration migration, PingLoop ping, PingLoop idlePing,
            Map<String, LongSummaryStatistics> slowCalls, Map<String, Long> events, String loadAverage) {

        double perSecond() {
            return size * 1000.0 / Math.max(1, migration.toMillis());
        }

        long longestCallMicros() {
            return SlowCalls.longest(slowCalls);
        }

        String report() {
            return String.format("[cost] redis %s N=%,d (load average %s): loaded in %.1f s (%,.0f offers/s), migrated in"
                                 + " %.1f s = %,.0f msg/s; PING max %.1f ms over %,d pings (%s; %d during a GC of the test"
                                 + " JVM, max %.1f ms), idle before: max %.1f ms over %,d pings; SLOWLOG over %d us"
                                 + " (count min/mean/max): %s; latency events over %d ms (longest ms): %s",
                    RedisServerExtension.version(), size, loadAverage, load.toMillis() / 1000.0,
                    size * 1000.0 / Math.max(1, load.toMillis()), migration.toMillis() / 1000.0, perSecond(),
                    ping.maxMillis(), ping.pings(), ping.spread(), ping.pingsAcrossGc(), ping.maxMillisAcrossGc(),
                    idlePing.maxMillis(),
                    idlePing.pings(), SLOWLOG_OVER_MICROS, SlowCalls.describe(slowCalls), EVENTS_OVER_MS, events);
        }
    }

    @Test
    void migrationTimeIsLinearInTheBacklogAndNoCallBlocksRedisLong() throws Exception {
        RedisServerProcess server = RedisServerExtension.process().orElse(null);
        Assumptions.assumeTrue(server != null, "the cost run needs the private redis-server of the test harness");
        System.out.println(migrate(server, WARM_UP).report() + " (warm-up)");
        List<Run> runs = new ArrayList<>();
        for (int size : sizes()) {
            Run run = migrate(server, size);
            System.out.println(run.report());
            runs.add(run);
        }
        for (Run run : runs) {
            assertThat(run.ping().maxMillis()).as("longest PING, N=%d", run.size()).isLessThan(MAX_BLOCK_MS);
            assertThat(run.longestCallMicros()).as("longest call in SLOWLOG, N=%d", run.size())
                    .isLessThan(MAX_BLOCK_MS * 1000);
            assertThat(run.perSecond()).as("rate at N=%d against N=%d", run.size(), runs.get(0).size())
                    .isGreaterThan(runs.get(0).perSecond() * MIN_RATE_RATIO);
        }
    }

    private Run migrate(RedisServerProcess server, int size) throws Exception {
        String legacy = "cost-" + UUID.randomUUID().toString().substring(0, 8);
        String queue = "cost" + size;
        LegacyKeys legacyKeys = new LegacyKeys(legacy, keyPrefix);
        Duration load;
        try (OldRedissonNode old = new OldRedissonNode(legacy)) {
            load = old.preload(size, i -> "order-" + i + PADDING, DUE_IN_MS, 1024);
        }
        assertThat(legacyKeys.left(redis())).isEqualTo(size);

        String loadAverage = Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        // what the machine alone does to PING round trips, for comparison
        PingLoop idlePing = PingLoop.start(server.host(), server.port(), IDLE_PINGING);
        try (idlePing) {
            await().pollDelay(IDLE_PINGING).atMost(IDLE_PINGING.plusSeconds(1)).until(() -> true);
        }
        SlowCalls slowCalls = SlowCalls.record(server, SLOWLOG_OVER_MICROS, EVENTS_OVER_MS);
        Duration migration;
        PingLoop ping = PingLoop.start(server.host(), server.port(), Duration.ofMinutes(30));
        try (ping) {
            long start = System.nanoTime();
            CamelContext node = startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    // nothing is due within the run: the route only migrates
                    from("redis-delay:" + queue + "?migrateFrom=" + legacy + "&migrateCodec=string").log("${body}");
                }
            });
            await("all " + size + " migrated").atMost(Duration.ofMinutes(20)).pollInterval(Duration.ofMillis(50))
                    .until(() -> legacyKeys.left(redis()) == 0 && redis().getMap(key(queue, "msg")).size() == size);
            migration = Duration.ofNanos(System.nanoTime() - start);
            // the next (idle) step empties the set of ids to unmark
            await("nothing left beside the legacy queue").atMost(Duration.ofSeconds(10))
                    .until(() -> legacyKeys.existing(redis()).isEmpty());
            node.stop();
        }
        // first: reading thousands of slowlog entries is itself a command the latency monitor would note
        Map<String, Long> events = slowCalls.events();
        Map<String, LongSummaryStatistics> slow = slowCalls.byCommand();
        slowCalls.stop();
        redis().getKeys().deleteByPattern(keyPrefix + ":*");
        return new Run(size, load, migration, ping, idlePing, slow, events, loadAverage);
    }

    private static List<Integer> sizes() {
        return Arrays.stream(System.getProperty(SIZES_PROPERTY, "100000,1000000").split(","))
                .map(String::strip).map(Integer::valueOf).toList();
    }
}
