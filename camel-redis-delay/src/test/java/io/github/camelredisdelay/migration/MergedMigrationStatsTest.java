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
import java.util.Map;
import java.util.UUID;

import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two RDelayedQueues migrated into one queue by two consumers of one CamelContext (a supported set-up, see
 * MergedLegacyQueuesTest): {@code operation=stats}, which the migration guide tells operators to read before they
 * remove the option, must not report the migration empty while one of the legacy queues still holds messages.
 */
class MergedMigrationStatsTest extends RedisDelayTestSupport {

    private static final int WAITING = 50;

    @Test
    void statsDoNotReportTheMigrationEmptyWhileOneOfTwoLegacyQueuesStillHoldsMessages() throws Exception {
        String waiting = "legacy-a-" + UUID.randomUUID().toString().substring(0, 8);
        String drained = "legacy-b-" + UUID.randomUUID().toString().substring(0, 8);
        LegacyKeys waitingKeys = new LegacyKeys(waiting, keyPrefix);
        try (OldRedissonNode old = new OldRedissonNode(waiting)) {
            for (int i = 0; i < WAITING; i++) {
                old.offer("order-" + i, 3_600_000);
            }
        }
        // another node migrates the first legacy queue for now (it holds the lease): this context's migration of it
        // waits, and reports what is left
        redis().getBucket(keyPrefix + ":migrate:{" + waiting + "}:owner").set("another-node", Duration.ofMinutes(1));

        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders?migrateFrom=" + waiting + "&migrateCodec=string").routeId("from-a")
                        .log("${body}");
                from("redis-delay:orders?migrateFrom=" + drained + "&migrateCodec=string").routeId("from-b")
                        .log("${body}");
            }
        });
        // each migration took its first step: the statistics know what both legacy queues hold
        await().atMost(Duration.ofSeconds(5)).until(() -> !Long.valueOf(-1).equals(stats(node).get("migrationLeft")));
        assertThat(waitingKeys.left(redis())).as("messages the first legacy queue holds").isEqualTo(WAITING);

        Map<String, Object> stats = stats(node);
        assertThat(stats.get("migrationEmpty")).as("migrationEmpty while " + waiting + " holds " + WAITING + " messages")
                .isNotEqualTo(true);
        assertThat(stats.get("migrationLeft")).as("migrationLeft while " + waiting + " holds " + WAITING + " messages")
                .isNotEqualTo(0L);

        node.getRouteController().stopRoute("from-b");
        stats = stats(node);
        assertThat(stats).as("stats while the migration from " + waiting + " runs in this context")
                .containsEntry("migrateFrom", waiting).containsEntry("migrationLeft", (long) WAITING);
    }

    @Test
    void statsKeepTheMigrationOfALegacyQueueThatARouteStillMigratesWhenAnotherRouteMigratingItStops() throws Exception {
        String legacy = "legacy-" + UUID.randomUUID().toString().substring(0, 8);
        LegacyKeys legacyKeys = new LegacyKeys(legacy, keyPrefix);
        for (int i = 0; i < WAITING; i++) {
            legacyKeys.offerDueAt(redis(), "order-" + i, System.currentTimeMillis() + 3_600_000);
        }

        // two consumers of one queue whose URIs differ, each naming the same legacy queue in migrateFrom
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders?migrateFrom=" + legacy + "&migrateCodec=string").routeId("first")
                        .log("${body}");
                from("redis-delay:orders?migrateFrom=" + legacy + "&migrateCodec=string&concurrentConsumers=2")
                        .routeId("second").log("${body}");
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> legacyKeys.left(redis()) == 0);
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(stats(node))
                .as("stats once both routes migrated " + legacy).containsEntry("migrateFrom", legacy)
                .containsEntry("migrationMoved", (long) WAITING).containsEntry("migrationLeft", 0L)
                .containsEntry("migrationEmpty", true));

        node.getRouteController().stopRoute("second");

        assertThat(stats(node)).as("stats while route first still migrates " + legacy)
                .containsEntry("migrateFrom", legacy).containsEntry("migrationLeft", 0L)
                .containsEntry("migrationEmpty", true);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> stats(CamelContext node) {
        return node.createProducerTemplate().requestBody("redis-delay:orders?operation=stats", null, Map.class);
    }
}
