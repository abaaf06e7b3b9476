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

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.RedisDelayComponent;
import io.github.camelredisdelay.RedisDelayConfiguration;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application in a container, configured by environment variables and overridden by command-line arguments: Spring
 * Boot reads {@code CAMEL_COMPONENT_REDIS_DELAY_*} itself, in its own order of property sources, where a command-line
 * argument wins over the environment. Each application runs in a JVM of its own, which has these variables.
 */
class EnvironmentVariablesTest {

    @RegisterExtension
    static final ClassRedis redis = new ClassRedis();

    /** An application with one queue, which prints the component's key prefix once started, then closes. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {

        @Bean
        RouteBuilder route() {
            return new RouteBuilder() {
                @Override
                public void configure() {
                    from("direct:schedule").to("redis-delay:environment");
                }
            };
        }

        public static void main(String[] args) {
            try (ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class)
                    .properties("spring.config.name=environment-variables-test").run(args)) {
                RedisDelayConfiguration configuration = context.getBean(CamelContext.class)
                        .getComponent("redis-delay", RedisDelayComponent.class).getConfiguration();
                System.out.println("KEY_PREFIX " + configuration.getKeyPrefix());
                System.out.println("RETRY_SCHEDULE " + configuration.getRetrySchedule());
                System.out.println("DELAY " + configuration.getDelay());
            }
        }
    }

    @Test
    void anEnvironmentVariableConfiguresTheComponent() throws Exception {
        String output = run(Map.of("CAMEL_COMPONENT_REDIS_DELAY_KEY_PREFIX", "from-environment"));

        assertThat(output).contains("KEY_PREFIX from-environment", "EXIT 0");
    }

    @Test
    void aCommandLineArgumentWinsOverTheEnvironment() throws Exception {
        String output = run(Map.of("CAMEL_COMPONENT_REDIS_DELAY_KEY_PREFIX", "from-environment"),
                "--camel.component.redis-delay.key-prefix=from-argument");

        assertThat(output).contains("KEY_PREFIX from-argument", "EXIT 0");
    }

    @Test
    void aVariableNamingNoOptionFailsTheStartupNamingIt() throws Exception {
        String output = run(Map.of("CAMEL_COMPONENT_REDIS_DELAY_VISIBILTY_TIMEOUT", "5m",
                "CAMEL_COMPONENT_REDIS_DELAY_ENABLED", "true"));

        assertThat(output).contains("CAMEL_COMPONENT_REDIS_DELAY_VISIBILTY_TIMEOUT does not configure the redis-delay")
                .doesNotContain("KEY_PREFIX", "EXIT 0", "CAMEL_COMPONENT_REDIS_DELAY_ENABLED does not");
    }

    /**
     * Spring Boot binds {@code ..._KEY_PREFIX}, not {@code ..._KEYPREFIX} (which camel-main reads): a variable Spring
     * drops must not be taken as known and pass in silence.
     */
    @Test
    void aVariableSpringBootDoesNotReadFailsTheStartupNamingTheOneItReads() throws Exception {
        String output = run(Map.of("CAMEL_COMPONENT_REDIS_DELAY_KEYPREFIX", "from-environment"));

        assertThat(output).contains("CAMEL_COMPONENT_REDIS_DELAY_KEYPREFIX", "CAMEL_COMPONENT_REDIS_DELAY_KEY_PREFIX")
                .doesNotContain("KEY_PREFIX camel:delay", "EXIT 0");
    }

    /**
     * Spring Boot binds a list from variables with the element's index after the name (its documented form for lists),
     * {@code retry-schedule} among them; the component must not refuse them as options it does not have.
     */
    @Test
    void aRetryScheduleGivenAsIndexedVariablesConfiguresTheComponent() throws Exception {
        String output = run(Map.of("CAMEL_COMPONENT_REDIS_DELAY_RETRY_SCHEDULE_0", "2s",
                "CAMEL_COMPONENT_REDIS_DELAY_RETRY_SCHEDULE_1", "7s"));

        assertThat(output).contains("RETRY_SCHEDULE 2s,7s", "EXIT 0").doesNotContain("does not configure");
    }

    /** The nested form, {@code camel.component.redis-delay.configuration.delay=5000}, applies (README). */
    @Test
    void aNestedConfigurationVariableConfiguresTheComponent() throws Exception {
        String output = run(Map.of("CAMEL_COMPONENT_REDIS_DELAY_CONFIGURATION_DELAY", "5000"));

        assertThat(output).contains("DELAY 5000", "EXIT 0").doesNotContain("does not configure");
    }

    /** A variable naming an index of an option that is no list names that variable, as it is spelt. */
    @Test
    void anIndexedVariableOfAnOptionThatIsNoListFailsTheStartupNamingIt() throws Exception {
        String output = run(Map.of("CAMEL_COMPONENT_REDIS_DELAY_MAX_DELIVERIES_0", "3"));

        assertThat(output).contains("CAMEL_COMPONENT_REDIS_DELAY_MAX_DELIVERIES_0 does not configure")
                .doesNotContain("EXIT 0");
    }

    @Test
    void theOffSwitchAsAVariableLeavesTheComponentUnconfigured() throws Exception {
        String output = run(Map.of("CAMEL_COMPONENT_REDIS_DELAY_ENABLED", "false",
                "CAMEL_COMPONENT_REDIS_DELAY_KEY_PREFIX", "from-environment"));

        assertThat(output).contains("KEY_PREFIX camel:delay", "EXIT 0");
    }

    /**
     * Runs {@link App} in a JVM of its own with these variables and arguments beside the test Redis' address; its
     * output, then {@code EXIT <status>}.
     */
    private static String run(Map<String, String> environment, String... args) throws Exception {
        List<String> command = new ArrayList<>(
                List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                        App.class.getName(), "--camel.component.redis-delay.address=" + redis.server().uri()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(environment);
        Process process = builder.start();
        try {
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).as(output).isTrue();
            return output + "\nEXIT " + process.exitValue();
        } finally {
            process.destroyForcibly();
        }
    }
}
