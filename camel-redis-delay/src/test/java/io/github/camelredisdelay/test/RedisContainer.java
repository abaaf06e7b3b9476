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
package io.github.camelredisdelay.test;

import java.util.Optional;

import io.github.camelredisdelay.embedded.RedisBinary;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/** Redis in a Testcontainers container, for machines with a Docker engine. */
final class RedisContainer {

    private static final int REDIS_PORT = 6379;

    private RedisContainer() {
    }

    /** Whether a Docker engine answers. */
    static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (Throwable noDocker) {
            // Without a usable Docker environment Testcontainers can fail with errors, not only exceptions
            // (e.g. ExceptionInInitializerError); all of them mean "not available" here.
            return false;
        }
    }

    /**
     * The image of the server a {@link RedisBinary#select(String)} choice names, so each test pass runs against the
     * server it is for: {@code path} the newest Redis the tests support, {@code embedded} Redis 6.2, {@code valkey}
     * Valkey 8.
     */
    static String imageFor(String binaryChoice) {
        return switch (binaryChoice) {
            case RedisBinary.PATH_CHOICE -> "redis:7.2";
            case RedisBinary.EMBEDDED_CHOICE -> "redis:6.2";
            case RedisBinary.VALKEY_CHOICE -> "valkey/valkey:8.0";
            default -> throw new IllegalArgumentException(
                    "Unknown Redis binary choice '" + binaryChoice + "': use " + RedisBinary.PATH_CHOICE + ", "
                                                          + RedisBinary.EMBEDDED_CHOICE + " or " + RedisBinary.VALKEY_CHOICE);
        };
    }

    /**
     * Starts a container of the image with an append-only file, as the private process has, and returns once the server
     * in it answers; it is removed when the result is closed.
     */
    static RunningRedis start(String image) {
        String server = image.startsWith("valkey/") ? "valkey-server" : "redis-server";
        GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse(image))
                .withExposedPorts(REDIS_PORT)
                .withCommand(server, "--appendonly", "yes");
        container.start();
        try {
            String url = "redis://" + container.getHost() + ":" + container.getMappedPort(REDIS_PORT);
            return new RunningRedis(
                    url, RedisInfo.version(url), Optional.empty(),
                    "Testcontainers " + image + ", " + url, container::stop);
        } catch (RuntimeException e) {
            container.stop();
            throw e;
        }
    }
}
