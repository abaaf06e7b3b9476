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
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RBlockingQueue;
import org.redisson.api.RDelayedQueue;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * docs/migration-from-rdelayedqueue.md followed as a user would: the guide's "typical code", then its migrating route
 * and the end of its procedure, as written.
 */
class MigrationGuideTest extends RedisDelayTestSupport {

    /** What OrderService.expire(String orderId) of the guide would be called with. */
    private final List<Object> expired = new CopyOnWriteArrayList<>();

    public class OrderService {
        public void expire(String orderId) {
            expired.add(orderId);
        }
    }

    @Test
    @SuppressWarnings("deprecation")
    void theGuidesRouteHandsItsServiceTheOrderIdsTheTypicalCodeOfferedAndSaysWhenTheLegacyQueueIsEmpty() throws Exception {
        Config config = new Config();
        config.useSingleServer().setAddress(RedisServerExtension.redisUrl());
        RedissonClient redisson = Redisson.create(config);
        try {
            // the guide's "typical code"
            RBlockingQueue<String> expirations = redisson.getBlockingQueue("order-expirations", StringCodec.INSTANCE);
            RDelayedQueue<String> deadlines = redisson.getDelayedQueue(expirations);
            deadlines.offer("order-1", 200, TimeUnit.MILLISECONDS);
            deadlines.offer("order-2", 300, TimeUnit.MILLISECONDS);

            OrderService orderService = new OrderService();
            try (LogLines log = LogLines.of("io.github.camelredisdelay.internal.MigrationProgress")) {
                CamelContext context = startContext(new RouteBuilder() {
                    @Override
                    public void configure() {
                        // the guide's route, as written
                        from("redis-delay:order-expirations?migrateFrom=order-expirations&migrateCodec=string")
                                .bean(orderService, "expire(${body})");
                    }
                });
                await().atMost(Duration.ofSeconds(10)).until(() -> expired.size() == 2);
                // step 3: the log line, and stats in this context
                await().atMost(Duration.ofSeconds(10))
                        .until(() -> log.lines().stream()
                                .anyMatch(l -> l.contains("RDelayedQueue order-expirations is empty")));
                ProducerTemplate template = context.createProducerTemplate();
                Map<?, ?> stats = template.requestBody("redis-delay:order-expirations?operation=stats", null, Map.class);
                assertThat(stats.get("migrationLeft")).isEqualTo(0L);
            }
            assertThat(expired).as("the order ids the old producers offered").containsExactlyInAnyOrder("order-1", "order-2");
        } finally {
            redisson.shutdown();
        }
    }
}
