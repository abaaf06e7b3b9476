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
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A second component declared the usual Spring way, {@code @Bean RedisDelayComponent auditDelay()}: its bean name, and
 * so its Camel name, is camel case. The starter must leave it usable.
 */
class CamelCaseComponentNameTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(OneRedissonClient.class)
    static class App {

        @Bean
        RedisDelayComponent auditDelay() {
            RedisDelayComponent audit = new RedisDelayComponent();
            audit.getConfiguration().setKeyPrefix("audit:delay");
            return audit;
        }

        @Bean
        RouteBuilder routes() {
            return new RouteBuilder() {
                @Override
                public void configure() {
                    from("direct:audit").to("auditDelay:events");
                }
            };
        }
    }

    @Test
    void aComponentBeanWithACamelCaseNameStarts() {
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class)
                .properties("spring.config.name=camel-case-component-name-test").run()) {
            RedisDelayComponent audit = context.getBean(CamelContext.class)
                    .getComponent("auditDelay", RedisDelayComponent.class);

            assertThat(audit.getConfiguration().getKeyPrefix()).isEqualTo("audit:delay");
        }
    }

    @Test
    void camelComponentPropertiesUnderTheCamelCaseNameConfigureIt() {
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class).properties(
                "spring.config.name=camel-case-component-name-test", "camel.component.audit-delay.max-deliveries=7")
                .run()) {
            RedisDelayComponent audit = context.getBean(CamelContext.class)
                    .getComponent("auditDelay", RedisDelayComponent.class);

            assertThat(audit.getConfiguration().getMaxDeliveries()).isEqualTo(7);
        }
    }
}
