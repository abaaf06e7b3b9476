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
package io.github.camelredisdelay.sentinel;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;

import io.github.camelredisdelay.embedded.RedisSentinelDeployment;

/**
 * The Redisson YAML file a node is given as {@code redissonConfig} to reach a {@link RedisSentinelDeployment}: the
 * configuration docs/sentinel.md recommends, with this deployment's Sentinel addresses and master name.
 */
final class RedissonSentinelYaml {

    private static final String TEMPLATE = """
            sentinelServersConfig:
              masterName: "%s"
              sentinelAddresses:
            %s
            %s
              subscriptionMode: "MASTER"
              # how often the Sentinels are asked for the master: the delay between a promotion and its use
              scanInterval: 500
              # a command meeting a dead master is retried twice 250 ms apart, then fails to the caller
              retryAttempts: 2
              retryDelay: !<org.redisson.config.ConstantDelay> {delay: PT0.25S}
              timeout: 3000
            """;

    private RedissonSentinelYaml() {
    }

    /** Writes {@code redisson-sentinel.yaml} into {@code dir} and returns its path. */
    static Path write(RedisSentinelDeployment deployment, Path dir) {
        return write(deployment, dir, "redisson-sentinel.yaml",
                "  # reads too go to the master: the stats and time scripts must not see a lagging replica\n"
                                                                + "  readMode: \"MASTER\"");
    }

    /**
     * Writes {@code redisson-sentinel-default-read-mode.yaml} into {@code dir}, the same file without {@code readMode}
     * (so with Redisson's default for Sentinel, {@code SLAVE}: read-only commands go to replicas), and returns its
     * path.
     */
    static Path writeWithDefaultReadMode(RedisSentinelDeployment deployment, Path dir) {
        return write(deployment, dir, "redisson-sentinel-default-read-mode.yaml", "  # readMode: Redisson's default");
    }

    private static Path write(RedisSentinelDeployment deployment, Path dir, String name, String readMode) {
        String addresses = deployment.sentinelAddresses().stream().map(address -> "    - \"" + address + "\"")
                .collect(Collectors.joining("\n"));
        Path file = dir.resolve(name);
        try {
            Files.writeString(file, TEMPLATE.formatted(deployment.masterName(), addresses, readMode), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + file, e);
        }
        return file;
    }
}
