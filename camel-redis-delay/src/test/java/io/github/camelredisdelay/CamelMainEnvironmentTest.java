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
package io.github.camelredisdelay;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.main.ApplicationClassLoaderMain;
import io.github.camelredisdelay.main.EnvironmentConfiguredMain;
import io.github.camelredisdelay.main.EnvironmentSendMain;
import io.github.camelredisdelay.main.OtherLibraryPropertiesSource;
import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A container configured by environment variables: CAMEL_COMPONENT_REDIS_DELAY_* reach the component under camel-main,
 * although its name has a dash (camel-main maps only the names it knows).
 */
@ExtendWith(RedisServerExtension.class)
@CamelSide
class CamelMainEnvironmentTest {

    @Test
    void environmentVariablesConfigureTheComponentUnderCamelMain() throws Exception {
        String keyPrefix = "env:" + UUID.randomUUID().toString().substring(0, 8);

        String output = runMain(keyPrefix, List.of());

        assertThat(output).contains("ADDRESS " + RedisServerExtension.redisUrl(), "KEY_PREFIX " + keyPrefix,
                "DELIVERED hello");
    }

    /**
     * Camel takes one {@code properties-source-factory} from the class path, the first it finds: the component must not
     * take that place from another library's source (camel-microprofile-config's, say) that comes after it.
     */
    @Test
    void anotherLibrarysPropertiesSourceStillConfiguresTheComponentUnderCamelMain(@TempDir Path directory)
            throws Exception {
        String keyPrefix = "env:" + UUID.randomUUID().toString().substring(0, 8);
        Path factory = directory.resolve("META-INF/services/org/apache/camel/properties-source-factory");
        Files.createDirectories(factory.getParent());
        Files.writeString(factory, "class=" + OtherLibraryPropertiesSource.class.getName() + "\n");

        String output = runMain(
                List.of("-DotherLibrary.camel.component.redis-delay.address=" + RedisServerExtension.redisUrl()),
                Map.of("CAMEL_COMPONENT_REDIS_DELAY_KEY_PREFIX", keyPrefix), directory, List.of());

        assertThat(output).contains("ADDRESS " + RedisServerExtension.redisUrl(), "KEY_PREFIX " + keyPrefix,
                "DELIVERED hello");
    }

    /**
     * An application server (a web application's libraries), Spring Boot's executable jar or a launcher loads the
     * application's jars, the component's and Camel's, with a class loader of their own: the JVM's system class loader
     * does not see them.
     */
    @Test
    void environmentVariablesConfigureTheComponentLoadedByAnApplicationsOwnClassLoader() throws Exception {
        String keyPrefix = "env:" + UUID.randomUUID().toString().substring(0, 8);

        String output = runInApplicationClassLoader(keyPrefix, List.of());

        assertThat(output).contains("ADDRESS " + RedisServerExtension.redisUrl(), "KEY_PREFIX " + keyPrefix,
                "DELIVERED hello");
    }

    @Test
    void environmentVariablesWinOverAPropertyFileWhenTheApplicationHasAClassLoaderOfItsOwn(@TempDir Path directory)
            throws Exception {
        String keyPrefix = "env:" + UUID.randomUUID().toString().substring(0, 8);
        Path properties = directory.resolve("application.properties");
        Files.writeString(properties, "camel.component.redis-delay.key-prefix=from-file\n");

        String output = runInApplicationClassLoader(keyPrefix, List.of(properties.toString()));

        assertThat(output).contains("KEY_PREFIX " + keyPrefix, "DELIVERED hello");
    }

    /**
     * Camel-main fails to start on an option no component has; where the component binds the variables itself, an
     * endpoint made after the first failed must not be made without them (connecting to the default address).
     */
    @Test
    void anUnknownVariableFailsEveryEndpointWhenTheApplicationHasAClassLoaderOfItsOwn() throws Exception {
        String keyPrefix = "env:" + UUID.randomUUID().toString().substring(0, 8);

        String output = runInApplicationClassLoader(EnvironmentSendMain.class, List.of(), List.of(),
                Map.of("CAMEL_COMPONENT_REDIS_DELAY_ADDRESS", RedisServerExtension.redisUrl(),
                        "CAMEL_COMPONENT_REDIS_DELAY_KEY_PREFIX", keyPrefix,
                        "CAMEL_COMPONENT_REDIS_DELAY_NO_SUCH_OPTION", "1"));

        assertThat(output).containsPattern("FAILED 1 .*noSuchOption").containsPattern("FAILED 2 .*noSuchOption")
                .doesNotContain("SENT");
    }

    /** Where the component binds the variables itself, the failure says where the unknown option came from. */
    @Test
    void anUnknownVariableIsNamedInTheEndpointsFailureWhenTheApplicationHasAClassLoaderOfItsOwn() throws Exception {
        String output = runInApplicationClassLoader(EnvironmentSendMain.class, List.of(), List.of(),
                Map.of("CAMEL_COMPONENT_REDIS_DELAY_ADDRESS", RedisServerExtension.redisUrl(),
                        "CAMEL_COMPONENT_REDIS_DELAY_NO_SUCH_OPTION", "1"));

        assertThat(output).containsPattern("FAILED 1 .*CAMEL_COMPONENT_REDIS_DELAY_NO_SUCH_OPTION");
    }

    /** Camel-main reads JVM system properties after the environment: they win over it. */
    @Test
    void aSystemPropertyWinsOverTheEnvironmentUnderCamelMain() throws Exception {
        String keyPrefix = "sys:" + UUID.randomUUID().toString().substring(0, 8);

        String output = runMain(List.of("-Dcamel.component.redis-delay.key-prefix=" + keyPrefix),
                Map.of("CAMEL_COMPONENT_REDIS_DELAY_ADDRESS", RedisServerExtension.redisUrl(),
                        "CAMEL_COMPONENT_REDIS_DELAY_KEY_PREFIX", "from-environment"),
                null, List.of());

        assertThat(output).contains("KEY_PREFIX " + keyPrefix, "DELIVERED hello");
    }

    @Test
    void aSystemPropertyWinsOverTheEnvironmentWhenTheApplicationHasAClassLoaderOfItsOwn() throws Exception {
        String keyPrefix = "sys:" + UUID.randomUUID().toString().substring(0, 8);

        String output = runInApplicationClassLoader(EnvironmentConfiguredMain.class,
                List.of("-Dcamel.component.redis-delay.key-prefix=" + keyPrefix), List.of(),
                Map.of("CAMEL_COMPONENT_REDIS_DELAY_ADDRESS", RedisServerExtension.redisUrl(),
                        "CAMEL_COMPONENT_REDIS_DELAY_KEY_PREFIX", "from-environment"));

        assertThat(output).contains("KEY_PREFIX " + keyPrefix, "DELIVERED hello");
    }

    /**
     * Runs {@link EnvironmentConfiguredMain} with {@code args} in a class loader of its own
     * ({@link ApplicationClassLoaderMain}), the address and key prefix in the environment; returns its output.
     */
    private static String runInApplicationClassLoader(String keyPrefix, List<String> args) throws Exception {
        return runInApplicationClassLoader(EnvironmentConfiguredMain.class, List.of(), args,
                Map.of("CAMEL_COMPONENT_REDIS_DELAY_ADDRESS", RedisServerExtension.redisUrl(),
                        "CAMEL_COMPONENT_REDIS_DELAY_KEY_PREFIX", keyPrefix));
    }

    /**
     * Runs {@code mainClass} with {@code args} in a class loader of its own ({@link ApplicationClassLoaderMain}), with
     * these JVM options and environment variables; returns its output.
     */
    private static String runInApplicationClassLoader(
            Class<?> mainClass, List<String> jvmOptions, List<String> args, Map<String, String> environment)
            throws Exception {
        Path launcher = Path.of(ApplicationClassLoaderMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> launcherArgs = new ArrayList<>(List.of(System.getProperty("java.class.path"), mainClass.getName()));
        launcherArgs.addAll(args);
        return run(ApplicationClassLoaderMain.class.getName(), launcher.toString(), jvmOptions, environment, launcherArgs);
    }

    @Test
    void environmentVariablesWinOverAPropertyFileUnderCamelMain(@TempDir Path directory) throws Exception {
        String keyPrefix = "env:" + UUID.randomUUID().toString().substring(0, 8);
        Path properties = directory.resolve("application.properties");
        Files.writeString(properties, "camel.component.redis-delay.key-prefix=from-file\n");

        String output = runMain(keyPrefix, List.of(properties.toString()));

        assertThat(output).contains("KEY_PREFIX " + keyPrefix, "DELIVERED hello");
    }

    /**
     * Runs {@link EnvironmentConfiguredMain} with the address and key prefix in the environment; returns its output.
     */
    private static String runMain(String keyPrefix, List<String> args) throws Exception {
        return runMain(List.of(), Map.of("CAMEL_COMPONENT_REDIS_DELAY_ADDRESS", RedisServerExtension.redisUrl(),
                "CAMEL_COMPONENT_REDIS_DELAY_KEY_PREFIX", keyPrefix), null, args);
    }

    /**
     * Runs {@link EnvironmentConfiguredMain} with these JVM options and environment variables, and
     * {@code lastOnClassPath} (if any) after the test's class path; returns its output.
     */
    private static String runMain(
            List<String> jvmOptions, Map<String, String> environment, Path lastOnClassPath,
            List<String> args)
            throws Exception {
        String classPath = System.getProperty("java.class.path")
                           + (lastOnClassPath == null ? "" : File.pathSeparator + lastOnClassPath);
        return run(EnvironmentConfiguredMain.class.getName(), classPath, jvmOptions, environment, args);
    }

    /** Runs {@code mainClass} from {@code classPath} with these JVM options and environment variables; its output. */
    private static String run(
            String mainClass, String classPath, List<String> jvmOptions, Map<String, String> environment,
            List<String> args)
            throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> command = new ArrayList<>(
                List.of(java.toString(), "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", classPath, mainClass));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(environment);
        Process process = builder.start();
        try {
            String output = readAll(process);
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(process.exitValue()).as(output).isZero();
            return output;
        } finally {
            process.destroyForcibly();
        }
    }

    private static String readAll(Process process) throws IOException {
        return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
}
