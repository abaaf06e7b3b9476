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

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.LongSummaryStatistics;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import io.github.camelredisdelay.RedisDelayConstants;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A live RDelayedQueue is switched to a redis-delay queue while an old node keeps offering and consuming: every message
 * is delivered once, by the old consumer or by the route, and on time.
 */
class LiveMigrationTest extends RedisDelayTestSupport {

    private static final long EARLY_MS = 100;
    /**
     * Latest arrival after a message's due time: the deliveries arrive within about 200 ms of it on an idle machine; a
     * message left to a later pass, a lease's expiry or a retry would be seconds late, a busy machine is not.
     */
    private static final long LATE_MS = 3000;

    /** Arrival by the route: delivery time and how often. */
    private final Map<String, List<Long>> arrivals = new ConcurrentHashMap<>();

    @Test
    void everyLegacyMessageIsDeliveredOnceAndOnTimeWhileOldNodesRun() throws Exception {
        migrate(2_000, 6_000);
    }

    @Test
    @Tag("slow")
    void tenThousandLegacyMessagesAreDeliveredOnceAndOnTimeWhileOldNodesRun() throws Exception {
        migrate(10_000, 20_000);
    }

    private void migrate(int count, long spreadMs) throws Exception {
        String legacy = "legacy-" + UUID.randomUUID().toString().substring(0, 8);
        try (OldRedissonNode old = new OldRedissonNode(legacy)) {
            for (int i = 0; i < count; i++) {
                old.offer("m" + i, i * spreadMs / count);
            }
            // the old node's transfer task moves the first due messages into the destination list; nobody takes them yet
            await().atMost(Duration.ofSeconds(10)).until(() -> old.destinationSize() >= 20);
            old.produce(100, spreadMs / 2);
            old.consume();

            long routeStart = System.currentTimeMillis();
            CamelContext node = startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:orders?concurrentConsumers=4&migrateFrom=" + legacy + "&migrateCodec=string")
                            .process(exchange -> {
                                long now = System.currentTimeMillis();
                                assertThat(exchange.getIn().getHeader(RedisDelayConstants.MIGRATED_FROM)).isEqualTo(legacy);
                                assertThat(exchange.getIn().getHeader(RedisDelayConstants.MESSAGE_ID, String.class))
                                        .startsWith("rdq-");
                                arrivals.computeIfAbsent(exchange.getIn().getBody(String.class), v -> new ArrayList<>())
                                        .add(now);
                            });
                }
            });
            // the old consumer and producer keep running for a while after the switch
            await().pollDelay(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(4)).until(() -> true);
            old.stopProducing();
            old.stopConsuming();
            old.close();

            List<String> offered = old.offered();
            await().atMost(Duration.ofMillis(spreadMs + 15_000)).pollInterval(Duration.ofMillis(200))
                    .untilAsserted(() -> assertThat(notTaken(offered, old)).as("offered, taken by neither side").isEmpty());
            // nothing more comes: no duplicates in flight
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3))
                    .until(() -> arrivals.size() + old.taken().size() == offered.size());

            Set<String> byOld = new HashSet<>(old.taken());
            assertThat(byOld).hasSameSizeAs(old.taken());
            assertThat(arrivals.keySet()).doesNotContainAnyElementsOf(byOld);
            Set<String> delivered = new HashSet<>(byOld);
            delivered.addAll(arrivals.keySet());
            assertThat(delivered).containsExactlyInAnyOrderElementsOf(offered);
            List<String> late = new ArrayList<>();
            LongSummaryStatistics lateness = new LongSummaryStatistics();
            arrivals.forEach((value, times) -> {
                assertThat(times).as(value).hasSize(1);
                long due = Long.parseLong(value.substring(value.indexOf(':') + 1));
                long arrived = times.get(0);
                // a message due before the switch can only arrive after it
                lateness.accept(arrived - Math.max(due, routeStart));
                if (arrived < due - EARLY_MS || arrived > Math.max(due, routeStart) + LATE_MS) {
                    late.add(value + " arrived " + (arrived - due) + " ms after its due time");
                }
            });
            assertThat(late).isEmpty();

            @SuppressWarnings("unchecked")
            Map<String, Object> stats = node.createProducerTemplate().requestBody("redis-delay:orders?operation=stats", null,
                    Map.class);
            assertThat(stats).containsEntry("migrateFrom", legacy).containsEntry("migrationLeft", 0L)
                    .containsEntry("migrationEmpty", true);
            assertThat((Long) stats.get("migrationMoved")).isGreaterThanOrEqualTo(arrivals.size());
            System.out.printf("migrated %d of %d messages; the old consumer took %d; the route's deliveries arrived %d to %d ms"
                              + " after their due time (or the switch, if later), %.1f ms on average%n",
                    arrivals.size(), offered.size(), byOld.size(), lateness.getMin(), lateness.getMax(),
                    lateness.getAverage());
        }
    }

    private List<String> notTaken(List<String> offered, OldRedissonNode old) {
        Set<String> taken = new HashSet<>(old.taken());
        taken.addAll(arrivals.keySet());
        return offered.stream().filter(value -> !taken.contains(value)).toList();
    }
}
