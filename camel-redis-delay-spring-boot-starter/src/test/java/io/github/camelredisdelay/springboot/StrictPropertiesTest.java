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

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * "Nothing is misconfigured in silence" (component page), for Spring Boot properties: every duration option is read the
 * same strict way wherever it is set, and a value such as 30M "fails naming the option, the value and the accepted
 * forms" (ConfigurationTrapsTest checks it under camel-main); a misspelt {@code camel.component.redis-delay.*} property
 * fails the startup naming it, as under camel-main.
 */
class StrictPropertiesTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(OneRedissonClient.class)
    static class App {

        @Bean
        RouteBuilder route() {
            return new RouteBuilder() {
                @Override
                public void configure() {
                    from("direct:schedule").to("redis-delay:strict");
                }
            };
        }
    }

    @ParameterizedTest
    @ValueSource(strings = { "visibility-timeout", "delay", "sync-timeout" })
    void aDurationPropertyCamelWouldMisreadFailsStartupNamingOptionValueAndAcceptedForms(String option) {
        SpringApplicationBuilder app = new SpringApplicationBuilder(App.class).properties(
                "spring.config.name=strict-duration-properties-test",
                "camel.component.redis-delay." + option + "=30M");

        assertThatThrownBy(app::run).rootCause()
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(option.replace("-t", "T") + " option of component redis-delay")
                .hasMessageContaining("'30M'")
                .hasMessageContaining("lower-case units, each once and largest first (30m");
    }

    @Test
    void aNegativeDelayPropertyFailsStartupSayingItMustNotBeNegative() {
        SpringApplicationBuilder app = new SpringApplicationBuilder(App.class).properties(
                "spring.config.name=strict-duration-properties-test",
                "camel.component.redis-delay.delay=-5");

        assertThatThrownBy(app::run).rootCause()
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("delay option of component redis-delay")
                .hasMessageContaining("must not be negative: -5");
    }

    @ParameterizedTest
    @ValueSource(strings = { "adress=redis://redis.example.com:6379", "visibilty-timeout=5m", "max-delivery=1" })
    void aMisspeltComponentPropertyFailsTheStartupNamingIt(String property) {
        SpringApplicationBuilder app = new SpringApplicationBuilder(App.class).properties(
                "spring.config.name=strict-duration-properties-test", "camel.component.redis-delay." + property);

        assertThatThrownBy(() -> {
            try (ConfigurableApplicationContext context = app.run()) {
                // started: the property was dropped without a word
            }
        }).hasStackTraceContaining(property.substring(0, property.indexOf('=')));
    }
}
