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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.UUID;
import java.util.stream.Stream;

import io.github.camelredisdelay.embedded.RedisBinary;
import io.github.camelredisdelay.embedded.RedisSentinelDeployment;
import io.github.camelredisdelay.test.CamelNodes;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.apache.camel.CamelContext;
import org.apache.camel.RoutesBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * Base of the tests against a {@link RedisSentinelDeployment} of their own, started before and stopped after each test
 * from the binary the system property {@value RedisServerExtension#BINARY_PROPERTY} chooses (so the suite's second run
 * uses Redis 6.2). These tests always run private processes: they kill a master, which an external server or a
 * container is not ours to do. Nodes are CamelContexts whose component creates its own client from the Redisson YAML
 * file, the documented way.
 */
abstract class SentinelTestSupport {

    static final String MASTER_NAME = "delay-master";

    /** Key prefix of this test's queues. */
    final String keyPrefix = "test:" + UUID.randomUUID().toString().substring(0, 8);

    private final CamelNodes nodes = new CamelNodes();
    private RedisSentinelDeployment deployment;
    private String redisVersion;
    private Path configDir;
    private Path redissonConfig;
    private Path redissonConfigReadingReplicas;

    @BeforeEach
    void startDeployment() throws IOException {
        RedisBinary binary = RedisBinary.select(System.getProperty(RedisServerExtension.BINARY_PROPERTY,
                RedisBinary.PATH_CHOICE));
        deployment = RedisSentinelDeployment.start(binary, MASTER_NAME);
        redisVersion = deployment.master().version();
        configDir = Files.createTempDirectory("redisson-sentinel-");
        redissonConfig = RedissonSentinelYaml.write(deployment, configDir);
        redissonConfigReadingReplicas = RedissonSentinelYaml.writeWithDefaultReadMode(deployment, configDir);
    }

    @AfterEach
    void stopNodesAndDeployment() throws IOException {
        try {
            nodes.close();
        } finally {
            deployment.close();
            try (Stream<Path> files = Files.walk(configDir)) {
                files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
            }
        }
    }

    RedisSentinelDeployment deployment() {
        return deployment;
    }

    /** The {@code redis_version} of the data nodes. */
    String redisVersion() {
        return redisVersion;
    }

    /** Starts a CamelContext (think: one node) whose component reaches Redis through the Sentinels. */
    CamelContext startNode(RoutesBuilder... routes) throws Exception {
        return nodes.start(options -> {
            options.setRedissonConfig("file:" + redissonConfig);
            options.setKeyPrefix(keyPrefix);
        }, routes);
    }

    /** Creates, without starting, a node like {@link #startNode} whose Redisson file names another master. */
    CamelContext createNodeForMaster(String masterName, RoutesBuilder... routes) throws Exception {
        Path file = configDir.resolve("redisson-sentinel-" + masterName + ".yaml");
        Files.writeString(file, Files.readString(redissonConfig).replace('"' + MASTER_NAME + '"', '"' + masterName + '"'));
        return nodes.create(options -> {
            options.setRedissonConfig("file:" + file);
            options.setKeyPrefix(keyPrefix);
        }, routes);
    }

    /**
     * Creates, without starting, a node like {@link #startNode} whose Redisson file leaves {@code readMode} to
     * Redisson's default for Sentinel, {@code SLAVE}: Redisson sends read-only commands to the replica.
     */
    CamelContext createNodeReadingReplicas(RoutesBuilder... routes) throws Exception {
        return nodes.create(options -> {
            options.setRedissonConfig("file:" + redissonConfigReadingReplicas);
            options.setKeyPrefix(keyPrefix);
        }, routes);
    }
}
