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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.main.ApplicationClassLoaderMain;
import io.github.camelredisdelay.main.EnvironmentConfiguredMain;
import io.github.camelredisdelay.main.EnvironmentEndpointMain;
import io.github.camelredisdelay.main.EnvironmentSendMain;
import io.github.camelredisdelay.main.OtherLibraryPropertiesSource;
import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A container configured by environment variables: CAMEL_COMPONENT_REDIS_DELAY_* reach the component under camel-main,
 * although its name has a dash (camel-main maps only the names it knows).
 */
@ExtendWith(RedisServerExtension.class)
@CamelSide
class CamelMainEnvironmentTest {

    /** How the application's jars, Camel's and the component's among them, are loaded. */
    enum Launch {
        /** From the JVM's class path, as camel-main's own launcher and an uber-jar do. */
        CLASS_PATH,
        /**
         * By a class loader of their own ({@link ApplicationClassLoaderMain}), as an application server loads a web
         * application's libraries, or a launcher its plugins: the JVM's system class loader does not see them.
         */
        OWN_CLASS_LOADER;

        /** Runs {@code mainClass} with these JVM options, arguments and environment variables; its output. */
        String run(Class<?> mainClass, List<String> jvmOptions, List<String> args, Map<String, String> environment)
                throws Exception {
            String classPath = System.getProperty("java.class.path");
            if (this == CLASS_PATH) {
                return CamelMainEnvironmentTest.run(mainClass.getName(), classPath, jvmOptions, environment, args);
            }
            Path launcher = Path.of(ApplicationClassLoaderMain.class.getProtectionDomain().getCodeSource().getLocation()
                    .toURI());
            List<String> launcherArgs = new ArrayList<>(List.of(classPath, mainClass.getName()));
            launcherArgs.addAll(args);
            return CamelMainEnvironmentTest.run(ApplicationClassLoaderMain.class.getName(), launcher.toString(),
                    jvmOptions, environment, launcherArgs);
        }
    }

    @ParameterizedTest
    @EnumSource(Launch.class)
    void environmentVariablesConfigureTheComponentUnderCamelMain(Launch launch) throws Exception {
        String keyPrefix = "env:" + UUID.randomUUID().toString().substring(0, 8);

        String output = launch.run(EnvironmentConfiguredMain.class, List.of(), List.of(), addressAnd(keyPrefix));

        assertThat(output).contains("ADDRESS " + RedisServerExtension.redisUrl(), "KEY_PREFIX " + keyPrefix,
                "DELIVERED hello");
    }

    @ParameterizedTest
    @EnumSource(Launch.class)
    void environmentVariablesWinOverAPropertyFileUnderCamelMain(Launch launch, @TempDir Path directory)
            throws Exception {
        String keyPrefix = "env:" + UUID.randomUUID().toString().substring(0, 8);
        Path properties = directory.resolve("application.properties");
        Files.writeString(properties, "camel.component.redis-delay.key-prefix=from-file\n");

        String output = launch.run(EnvironmentConfiguredMain.class, List.of(), List.of(properties.toString()),
                addressAnd(keyPrefix));

        assertThat(output).contains("KEY_PREFIX " + keyPrefix, "DELIVERED hello");
    }

    /** Camel-main reads JVM system properties after the environment: they win over it. */
    @ParameterizedTest
    @EnumSource(Launch.class)
    void aSystemPropertyWinsOverTheEnvironmentUnderCamelMain(Launch launch) throws Exception {
        String keyPrefix = "sys:" + UUID.randomUUID().toString().substring(0, 8);

        String output = launch.run(EnvironmentConfiguredMain.class,
                List.of("-Dcamel.component.redis-delay.key-prefix=" + keyPrefix), List.of(),
                addressAnd("from-environment"));

        assertThat(output).contains("KEY_PREFIX " + keyPrefix, "DELIVERED hello");
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

        String output = run(EnvironmentConfiguredMain.class.getName(),
                System.getProperty("java.class.path") + File.pathSeparator + directory,
                List.of("-DotherLibrary.camel.component.redis-delay.address=" + RedisServerExtension.redisUrl()),
                Map.of("CAMEL_COMPONENT_REDIS_DELAY_KEY_PREFIX", keyPrefix), List.of());

        assertThat(output).contains("ADDRESS " + RedisServerExtension.redisUrl(), "KEY_PREFIX " + keyPrefix,
                "DELIVERED hello");
    }

    /**
     * Camel-main fails to start on an option no component has; where the component binds the variables itself, an
     * endpoint made after the first failed must not be made without them (connecting to the default address).
     */
    @Test
    void anUnknownVariableFailsEveryEndpointWhenTheApplicationHasAClassLoaderOfItsOwn() throws Exception {
        String keyPrefix = "env:" + UUID.randomUUID().toString().substring(0, 8);
        Map<String, String> environment = new HashMap<>(addressAnd(keyPrefix));
        environment.put("CAMEL_COMPONENT_REDIS_DELAY_NO_SUCH_OPTION", "1");

        String output = Launch.OWN_CLASS_LOADER.run(EnvironmentSendMain.class, List.of(), List.of(), environment);

        assertThat(output).containsPattern("FAILED 1 .*noSuchOption").containsPattern("FAILED 2 .*noSuchOption")
                .doesNotContain("SENT");
    }

    /** Where the component binds the variables itself, the failure says where the unknown option came from. */
    @Test
    void anUnknownVariableIsNamedInTheEndpointsFailureWhenTheApplicationHasAClassLoaderOfItsOwn() throws Exception {
        String output = Launch.OWN_CLASS_LOADER.run(EnvironmentSendMain.class, List.of(), List.of(),
                Map.of("CAMEL_COMPONENT_REDIS_DELAY_ADDRESS", RedisServerExtension.redisUrl(),
                        "CAMEL_COMPONENT_REDIS_DELAY_NO_SUCH_OPTION", "1"));

        assertThat(output).containsPattern("FAILED 1 .*CAMEL_COMPONENT_REDIS_DELAY_NO_SUCH_OPTION");
    }

    /**
     * Camel-main's off switch of a component, {@code camel.component.redis-delay.enabled=false} (or Camel's global
     * {@code camel.component.enabled=false}), leaves it unconfigured by its properties: by the environment variables
     * too.
     */
    @ParameterizedTest
    @ValueSource(strings = { "camel.component.redis-delay.enabled", "camel.component.enabled" })
    void theOffSwitchLeavesTheComponentUnconfiguredByTheEnvironmentUnderCamelMain(String offSwitch) throws Exception {
        String output = runEndpointMain(List.of("-D" + offSwitch + "=false"), addressAnd("env:off"));

        assertThat(output).contains("CREATED", "KEY_PREFIX camel:delay")
                .doesNotContain("ADDRESS " + RedisServerExtension.redisUrl());
    }

    /** The off switch as a variable too, as camel-main reads it for the components it knows by name. */
    @Test
    void theOffSwitchAsAVariableLeavesTheComponentUnconfiguredUnderCamelMain() throws Exception {
        Map<String, String> environment = new HashMap<>(addressAnd("env:off"));
        environment.put("CAMEL_COMPONENT_REDIS_DELAY_ENABLED", "false");

        String output = runEndpointMain(List.of(), environment);

        assertThat(output).contains("CREATED", "KEY_PREFIX camel:delay")
                .doesNotContain("ADDRESS " + RedisServerExtension.redisUrl());
    }

    @Test
    void theSwitchOnAsAVariableLeavesTheOtherVariablesConfiguringTheComponentUnderCamelMain() throws Exception {
        String keyPrefix = "env:" + UUID.randomUUID().toString().substring(0, 8);
        Map<String, String> environment = new HashMap<>(addressAnd(keyPrefix));
        environment.put("CAMEL_COMPONENT_REDIS_DELAY_ENABLED", "true");

        String output = runEndpointMain(List.of(), environment);

        assertThat(output).contains("CREATED", "KEY_PREFIX " + keyPrefix);
    }

    /**
     * A second component of this kind, under a name of its own: its variables, named after that name, configure it, as
     * camel-main's properties under that name do.
     */
    @Test
    void environmentVariablesConfigureASecondComponentUnderItsOwnNameUnderCamelMain() throws Exception {
        String keyPrefix = "env:" + UUID.randomUUID().toString().substring(0, 8);

        String output = run(EnvironmentEndpointMain.class.getName(), System.getProperty("java.class.path"), List.of(),
                Map.of("CAMEL_COMPONENT_AUDIT_DELAY_ADDRESS", RedisServerExtension.redisUrl(),
                        "CAMEL_COMPONENT_AUDIT_DELAY_KEY_PREFIX", keyPrefix),
                List.of("audit-delay"));

        assertThat(output).contains("CREATED", "ADDRESS " + RedisServerExtension.redisUrl(), "KEY_PREFIX " + keyPrefix);
    }

    /** A second component's variable that names no option fails its endpoints, naming the variable. */
    @Test
    void anUnknownVariableOfASecondComponentIsNamedInTheEndpointsFailureUnderCamelMain() throws Exception {
        String output = run(EnvironmentEndpointMain.class.getName(), System.getProperty("java.class.path"), List.of(),
                Map.of("CAMEL_COMPONENT_AUDIT_DELAY_NO_SUCH_OPTION", "1"), List.of("audit-delay"));

        assertThat(output).containsPattern("FAILED .*CAMEL_COMPONENT_AUDIT_DELAY_NO_SUCH_OPTION");
    }

    /** Runs {@link EnvironmentEndpointMain}, which makes an endpoint without connecting, from the class path. */
    private static String runEndpointMain(List<String> jvmOptions, Map<String, String> environment) throws Exception {
        return run(EnvironmentEndpointMain.class.getName(), System.getProperty("java.class.path"), jvmOptions,
                environment, List.of());
    }

    /** The test Redis' address and {@code keyPrefix}, as environment variables. */
    private static Map<String, String> addressAnd(String keyPrefix) {
        return Map.of("CAMEL_COMPONENT_REDIS_DELAY_ADDRESS", RedisServerExtension.redisUrl(),
                "CAMEL_COMPONENT_REDIS_DELAY_KEY_PREFIX", keyPrefix);
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
