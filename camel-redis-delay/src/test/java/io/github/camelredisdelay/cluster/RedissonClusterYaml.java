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
package io.github.camelredisdelay.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The Redisson configuration file the cluster tests give the component's {@code redissonConfig} option: the one
 * {@code docs/cluster.md} recommends, with the test cluster's nodes and connection pools sized for a test.
 */
final class RedissonClusterYaml {

    private RedissonClusterYaml() {
    }

    /** Writes the configuration for a cluster reachable at {@code nodeAddresses} to a new temporary file. */
    static Path write(List<String> nodeAddresses) {
        String nodes = nodeAddresses.stream().map(address -> "    - \"" + address + "\"")
                .collect(Collectors.joining("\n"));
        String yaml = """
                clusterServersConfig:
                  nodeAddresses:
                %s
                  # every command goes to the master of its slot: replicas lag behind what a script just wrote
                  readMode: "MASTER"
                  subscriptionMode: "MASTER"
                  # a promoted replica is found within a second of the promotion
                  scanInterval: 1000
                  # a command is retried for about 3 x 0.5 s before it fails; consumers and the transfer task then
                  # back off and retry by themselves, a producer's caller sees the error
                  retryAttempts: 3
                  retryDelay: !<org.redisson.config.ConstantDelay> {delay: PT0.5S}
                  timeout: 3000
                  # small pools: a test starts several clients on a two-core machine
                  masterConnectionMinimumIdleSize: 2
                  slaveConnectionMinimumIdleSize: 1
                  subscriptionConnectionMinimumIdleSize: 1
                """.formatted(nodes);
        try {
            Path file = Files.createTempFile("redisson-cluster-", ".yaml");
            Files.writeString(file, yaml, StandardCharsets.UTF_8);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the Redisson cluster configuration", e);
        }
    }
}
