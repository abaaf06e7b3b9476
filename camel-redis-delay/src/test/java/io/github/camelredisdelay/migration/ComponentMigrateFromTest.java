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
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.RedisDelayComponent;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code migrateFrom} set on the component ({@code camel.component.redis-delay.migrate-from} in Spring Boot, which the
 * starter binds): it applies to every consumer endpoint the component creates, the dead-letter queue's consumer
 * included. The legacy messages must reach the queue's route, not the dead-letter route, whichever starts first; a
 * setting that cannot mean that would have to be refused at startup.
 */
class ComponentMigrateFromTest extends RedisDelayTestSupport {

    private static final int MESSAGES = 100;

    private final List<String> expired = new CopyOnWriteArrayList<>();
    private final List<String> deadLettered = new CopyOnWriteArrayList<>();

    @Test
    void legacyMessagesOfAComponentWideMigrateFromDoNotGoToTheDeadLetterRoute() throws Exception {
        String legacy = "legacy-" + UUID.randomUUID().toString().substring(0, 8);
        try (OldRedissonNode old = new OldRedissonNode(legacy)) {
            for (int i = 0; i < MESSAGES; i++) {
                old.offer("order-" + i, i * 10L);
            }
            List<String> offered = old.offered();

            CamelContext context = createContext(new RouteBuilder() {
                @Override
                public void configure() {
                    // the guide's dead-letter route, defined before the queue's route
                    from("redis-delay:order-expirations.dead")
                            .process(e -> deadLettered.add(e.getMessage().getBody(String.class)));
                    from("redis-delay:order-expirations")
                            .process(e -> expired.add(e.getMessage().getBody(String.class)));
                }
            });
            RedisDelayComponent component = context.getComponent("redis-delay", RedisDelayComponent.class);
            component.getConfiguration().setMigrateFrom(legacy);
            component.getConfiguration().setMigrateCodec(io.github.camelredisdelay.MigrateCodec.string);
            try {
                context.start();
            } catch (Exception refused) {
                // refusing the setting, naming it, would do as well
                assertThat(refused).hasStackTraceContaining("migrateFrom");
                return;
            }

            await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(200))
                    .until(() -> expired.size() + deadLettered.size() >= offered.size());
            System.out.printf("delivered to the queue's route: %d, to the dead-letter route: %d%n", expired.size(),
                    deadLettered.size());
            assertThat(deadLettered).as("live legacy messages delivered to the dead-letter route").isEmpty();
            assertThat(expired).containsExactlyInAnyOrderElementsOf(offered);
        }
    }
}
