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

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.RedisDelayComponent;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code migrateFrom} set on the component ({@code camel.component.redis-delay.migrate-from} in Spring Boot, which the
 * starter binds): it applies to every consumer endpoint the component creates, the dead-letter queue's consumer
 * included, whichever starts first would take every legacy message. It cannot name the queue the messages go to, so it
 * is refused at startup, naming the setting.
 */
class ComponentMigrateFromTest extends RedisDelayTestSupport {

    private static final int MESSAGES = 100;

    private final List<String> expired = new CopyOnWriteArrayList<>();
    private final List<String> deadLettered = new CopyOnWriteArrayList<>();

    @Test
    void aMigrateFromSetOnTheComponentIsRefusedAtStartupNamingIt() throws Exception {
        String legacy = "legacy-" + UUID.randomUUID().toString().substring(0, 8);
        try (OldRedissonNode old = new OldRedissonNode(legacy)) {
            for (int i = 0; i < MESSAGES; i++) {
                old.offer("order-" + i, i * 10L);
            }

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
            // every queue's consumer would migrate it, the dead-letter route's too: refused, naming the setting
            assertThatThrownBy(context::start).hasStackTraceContaining("migrateFrom=" + legacy)
                    .hasStackTraceContaining("set it on the consumer endpoint");
            assertThat(deadLettered).isEmpty();
            assertThat(expired).isEmpty();
            assertThat(redis().getMap(key("order-expirations", "msg")).isExists()).as("nothing migrated").isFalse();
            assertThat(redis().getMap(key("order-expirations.dead", "msg")).isExists()).as("nothing migrated").isFalse();
        }
    }
}
