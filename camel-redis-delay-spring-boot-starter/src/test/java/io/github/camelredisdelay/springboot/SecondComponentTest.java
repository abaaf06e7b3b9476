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
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A second redis-delay component of the application's own ({@code audit-delay}, for the audit's queues in a namespace
 * of their own): {@code camel.component.redis-delay.*} configures the component named redis-delay, not every component
 * of its class, and {@code camel.component.audit-delay.*} configures the second one, as under camel-main. Each has its
 * own off switches, {@code enabled} and {@code customizer.enabled} under its own name, and the off switch of the one
 * leaves the other configured.
 */
class SecondComponentTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(OneRedissonClient.class)
    static class App {

        @Bean("audit-delay")
        RedisDelayComponent auditDelay() {
            RedisDelayComponent audit = new RedisDelayComponent();
            audit.getConfiguration().setKeyPrefix("audit:delay");
            audit.getConfiguration().setMaxDeliveries(9);
            return audit;
        }

        @Bean
        RouteBuilder routes() {
            return new RouteBuilder() {
                @Override
                public void configure() {
                    from("direct:order").to("redis-delay:orders");
                    from("direct:audit").to("audit-delay:events");
                }
            };
        }
    }

    @Test
    void theRedisDelayPropertiesLeaveASecondComponentAsTheApplicationConfiguredIt() {
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class).properties(
                "spring.config.name=second-component-test", "camel.component.redis-delay.key-prefix=orders:delay",
                "camel.component.redis-delay.max-deliveries=3").run()) {
            CamelContext camel = context.getBean(CamelContext.class);
            RedisDelayConfiguration orders = camel.getComponent("redis-delay", RedisDelayComponent.class)
                    .getConfiguration();
            RedisDelayConfiguration audit = camel.getComponent("audit-delay", RedisDelayComponent.class)
                    .getConfiguration();

            assertThat(orders.getKeyPrefix()).isEqualTo("orders:delay");
            assertThat(orders.getMaxDeliveries()).isEqualTo(3);
            assertThat(audit.getKeyPrefix()).as("the audit component's own key prefix").isEqualTo("audit:delay");
            assertThat(audit.getMaxDeliveries()).isEqualTo(9);
        }
    }

    @Test
    void camelComponentPropertiesUnderTheSecondComponentsNameConfigureIt() {
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class).properties(
                "spring.config.name=second-component-test", "camel.component.audit-delay.key-prefix=audit:other",
                "camel.component.audit-delay.max-deliveries=7", "camel.component.audit-delay.visibility-timeout=45s")
                .run()) {
            RedisDelayConfiguration audit = context.getBean(CamelContext.class)
                    .getComponent("audit-delay", RedisDelayComponent.class).getConfiguration();

            assertThat(audit.getKeyPrefix()).isEqualTo("audit:other");
            assertThat(audit.getMaxDeliveries()).isEqualTo(7);
            assertThat(audit.getVisibilityTimeout()).isEqualTo(45_000);
        }
    }

    @Test
    void aMisspeltPropertyOfTheSecondComponentFailsTheStartupNamingIt() {
        SpringApplicationBuilder app = new SpringApplicationBuilder(App.class).properties(
                "spring.config.name=second-component-test", "camel.component.audit-delay.max-delivery=7");

        assertThatThrownBy(() -> {
            try (ConfigurableApplicationContext context = app.run()) {
                // started: the property was dropped without a word
            }
        }).hasStackTraceContaining("camel.component.audit-delay.max-delivery");
    }

    @Test
    void theRedisDelayOffSwitchLeavesTheSecondComponentsPropertiesApplied() {
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class).properties(
                "spring.config.name=second-component-test", "camel.component.redis-delay.enabled=false",
                "camel.component.audit-delay.key-prefix=audit:other").run()) {
            RedisDelayConfiguration audit = context.getBean(CamelContext.class)
                    .getComponent("audit-delay", RedisDelayComponent.class).getConfiguration();

            assertThat(audit.getKeyPrefix()).isEqualTo("audit:other");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "camel.component.audit-delay.enabled", "camel.component.audit-delay.customizer.enabled",
            "camel.component.customizer.enabled", "camel.component.enabled" })
    void anOffSwitchOfTheSecondComponentLeavesItAsTheApplicationConfiguredIt(String offSwitch) {
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class).properties(
                "spring.config.name=second-component-test", offSwitch + "=false",
                "camel.component.audit-delay.key-prefix=audit:other").run()) {
            RedisDelayConfiguration audit = context.getBean(CamelContext.class)
                    .getComponent("audit-delay", RedisDelayComponent.class).getConfiguration();

            assertThat(audit.getKeyPrefix()).as("the audit component's own key prefix").isEqualTo("audit:delay");
        }
    }
}
