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
package io.github.camelredisdelay.springboot;

import io.github.camelredisdelay.RedisDelayComponent;
import io.github.camelredisdelay.RedisDelayConfiguration;
import org.apache.camel.CamelContext;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Options nested under {@code camel.component.redis-delay.configuration.*} are bound by Spring into a fresh set of
 * defaults, not by the component: none is dropped in silence, but durations there are plain milliseconds. The flat form
 * ({@code camel.component.redis-delay.delay=5s}) is the documented one.
 */
class NestedConfigurationPropertyTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(OneRedissonClient.class)
    static class App {
    }

    private static SpringApplicationBuilder app(String... properties) {
        return new SpringApplicationBuilder(App.class).properties("spring.config.name=nested-configuration-property-test")
                .properties(properties);
    }

    @Test
    void aNestedOptionIsApplied() {
        try (ConfigurableApplicationContext context = app("camel.component.redis-delay.configuration.delay=5000",
                "camel.component.redis-delay.configuration.max-deliveries=2").run()) {
            RedisDelayConfiguration configuration = context.getBean(CamelContext.class)
                    .getComponent("redis-delay", RedisDelayComponent.class).getConfiguration();

            assertThat(configuration.getDelay()).isEqualTo(5_000);
            assertThat(configuration.getMaxDeliveries()).isEqualTo(2);
        }
    }

    @Test
    void aNestedDurationInUnitsFailsStartupNamingTheProperty() {
        assertThatThrownBy(() -> {
            try (ConfigurableApplicationContext context = app("camel.component.redis-delay.configuration.delay=5s").run()) {
                // started: the property was dropped without a word
            }
        }).hasStackTraceContaining("camel.component.redis-delay.configuration.delay");
    }
}
