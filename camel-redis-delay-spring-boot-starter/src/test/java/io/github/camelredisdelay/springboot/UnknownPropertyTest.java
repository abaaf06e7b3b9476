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
 * "Nothing is misconfigured in silence" (component page). Under camel-main a misspelt
 * {@code camel.component.redis-delay.*} option fails the startup naming it; under Spring Boot the starter's
 * {@code @ConfigurationProperties} ignores unknown fields, so a typo such as {@code adress} (the queues then go to
 * redis://127.0.0.1:6379, or to the only RedissonClient bean) or {@code visibilty-timeout} starts in silence.
 */
class UnknownPropertyTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(OneRedissonClient.class)
    static class App {

        @Bean
        RouteBuilder route() {
            return new RouteBuilder() {
                @Override
                public void configure() {
                    from("direct:schedule").to("redis-delay:typo");
                }
            };
        }
    }

    @ParameterizedTest
    @ValueSource(strings = { "adress=redis://redis.example.com:6379", "visibilty-timeout=5m", "max-delivery=1" })
    void aMisspeltComponentPropertyFailsTheStartupNamingIt(String property) {
        SpringApplicationBuilder app = new SpringApplicationBuilder(App.class).properties(
                "spring.config.name=unknown-property-test", "camel.component.redis-delay." + property);

        assertThatThrownBy(() -> {
            try (ConfigurableApplicationContext context = app.run()) {
                // started: the property was dropped without a word
            }
        }).hasStackTraceContaining(property.substring(0, property.indexOf('=')));
    }
}
