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

import java.util.Map;
import java.util.Properties;

import io.github.camelredisdelay.RedisDelayComponent;
import org.apache.camel.CamelContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.PropertiesPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * "An unknown property fails the startup too" (README), wherever Spring Boot reads it from: Spring Boot's own check of
 * unknown properties leaves out JVM system properties ({@code -D} in {@code JAVA_OPTS}) and environment variables in
 * the form Spring Boot documents ({@code CAMEL_COMPONENT_REDISDELAY_MAXDELIVERIES}), so a misspelt one was dropped in
 * silence and the option kept its default. Each application gets an environment whose system properties or variables
 * are these, as a container would give them.
 */
class UnknownPropertyOutsideFilesTest {

    @ParameterizedTest
    @ValueSource(strings = { "camel.component.redis-delay.visibilty-timeout", "camel.component.redis-delay.max-delivery" })
    void aMisspeltJvmSystemPropertyFailsTheStartupNamingIt(String property) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().replace(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME,
                new PropertiesPropertySource(
                        StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME,
                        properties(Map.of(property, "5"))));

        assertStartupFailsNaming(environment, property);
    }

    @Test
    void aMisspeltEnvironmentVariableInSpringBootsFormFailsTheStartupNamingIt() {
        StandardEnvironment environment = withVariables(Map.of("CAMEL_COMPONENT_REDISDELAY_MAXDELIVERYS", "8"));

        assertStartupFailsNaming(environment, "CAMEL_COMPONENT_REDISDELAY_MAXDELIVERYS");
    }

    @Test
    void wellSpeltVariablesInEitherFormStillConfigureTheComponent() {
        StandardEnvironment environment = withVariables(Map.of("CAMEL_COMPONENT_REDISDELAY_MAXDELIVERIES", "8",
                "CAMEL_COMPONENT_REDIS_DELAY_KEY_PREFIX", "from-environment", "CAMEL_COMPONENT_REDIS_DELAY_ENABLED",
                "true", "CAMEL_COMPONENT_REDISDELAY_CUSTOMIZER_ENABLED", "true"));

        try (ConfigurableApplicationContext context = app(environment).run()) {
            RedisDelayComponent component = context.getBean(CamelContext.class)
                    .getComponent("redis-delay", RedisDelayComponent.class);

            assertThat(component.getConfiguration().getMaxDeliveries()).isEqualTo(8);
            assertThat(component.getConfiguration().getKeyPrefix()).isEqualTo("from-environment");
        }
    }

    private static void assertStartupFailsNaming(StandardEnvironment environment, String property) {
        assertThatThrownBy(() -> {
            try (ConfigurableApplicationContext context = app(environment).run()) {
                // started: the property was dropped without a word
            }
        }).hasStackTraceContaining(property.substring(property.lastIndexOf('.') + 1));
    }

    private static SpringApplicationBuilder app(StandardEnvironment environment) {
        return new SpringApplicationBuilder(StrictPropertiesTest.App.class).environment(environment)
                .properties("spring.config.name=unknown-property-outside-files-test");
    }

    private static StandardEnvironment withVariables(Map<String, Object> variables) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                new SystemEnvironmentPropertySource(
                        StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                        variables));
        return environment;
    }

    private static Properties properties(Map<String, String> values) {
        Properties properties = new Properties();
        properties.putAll(values);
        return properties;
    }
}
