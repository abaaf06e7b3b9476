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

import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/** Redis in a Testcontainers container, for machines with a Docker engine. */
final class RedisContainer {

    static final String IMAGE = "redis:7.2";

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

    /** Starts a container and returns once Redis in it answers; it is removed when the result is closed. */
    static RunningRedis start() {
        GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse(IMAGE))
                .withExposedPorts(REDIS_PORT);
        container.start();
        try {
            String url = "redis://" + container.getHost() + ":" + container.getMappedPort(REDIS_PORT);
            return new RunningRedis(
                    url, RedisInfo.version(url), Optional.empty(),
                    "Testcontainers " + IMAGE + ", " + url, container::stop);
        } catch (RuntimeException e) {
            container.stop();
            throw e;
        }
    }
}
