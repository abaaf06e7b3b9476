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
package io.github.camelredisdelay.jbang;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.embedded.RedisBinary;
import io.github.camelredisdelay.embedded.RedisServerOptions;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code camel run orders.yaml --dep=io.github.camelredisdelay:camel-redis-delay:<version>} in its own JVM, against a
 * private redis-server: the component comes from the local Maven repository (after {@code mvn install}), or from the
 * repository {@code -Djbang.repos=file:///...} names.
 */
class CamelRunTest {

    private static final int RUN_SECONDS = 15;
    private static final long EXIT_TIMEOUT_SECONDS = 120;

    @Test
    void ordersYamlSchedulesAndExpiresOrdersWithTheComponentFromTheMavenRepository() throws Exception {
        Path output = Files.createTempFile("camel-run-", ".log");
        try (RedisServerProcess redis = RedisServerProcess.start(RedisBinary.select(RedisBinary.PATH_CHOICE),
                RedisServerOptions.defaults())) {
            Process camel = new ProcessBuilder(command(redis.uri())).redirectErrorStream(true)
                    .redirectOutput(output.toFile()).start();
            boolean exited = camel.waitFor(EXIT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (!exited) {
                camel.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            String log = Files.readString(output, StandardCharsets.UTF_8);

            assertThat(exited).as("camel run ended after --max-seconds=" + RUN_SECONDS + ":%n%s", log).isTrue();
            assertThat(camel.exitValue()).as("exit code of camel run:%n%s", log).isZero();
            assertThat(log).contains("order-1 created").contains("order-1 expired unpaid");
        } finally {
            Files.deleteIfExists(output);
        }
    }

    private static List<String> command(String redisUri) throws IOException {
        List<String> command = new ArrayList<>(
                List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp", System.getProperty("java.class.path"), CamelJBangLauncher.class.getName(),
                        "run", required("jbang.routes"), "--dep=" + required("jbang.dep"), "--max-seconds=" + RUN_SECONDS,
                        "--prop=camel.component.redis-delay.address=" + redisUri, "--prop=orders.interval=1000",
                        "--prop=orders.payment-deadline=2s"));
        String repos = System.getProperty("jbang.repos", "");
        if (!repos.isBlank() && !repos.startsWith("${")) {
            command.add("--repos=" + repos);
        }
        return command;
    }

    private static String required(String property) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("System property " + property + " is not set; run through Maven (-Pjbang)");
        }
        return value;
    }
}
