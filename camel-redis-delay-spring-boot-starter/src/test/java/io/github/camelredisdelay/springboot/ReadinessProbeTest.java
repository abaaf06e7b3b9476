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

import java.time.Duration;

import io.github.camelredisdelay.embedded.RedisServerProcess;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.health.actuate.endpoint.HealthDescriptor;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Kubernetes probes of a Spring Boot application (/actuator/health/readiness and /liveness): Spring Boot's readiness
 * group holds only its own readinessState, so the queue consumers' Camel checks reach it only through
 * camel-spring-boot's camelReadinessState, which the README's configuration adds. The readiness probe then fails while
 * Redis does not answer and passes again once it does; the liveness probe stays UP, so Kubernetes does not restart the
 * pods for an outage of Redis.
 */
@SpringBootTest(classes = ReadinessProbeTest.App.class,
                properties = {
                        "management.endpoints.jmx.exposure.include=health",
                        "management.endpoint.health.probes.enabled=true",
                        "management.endpoint.health.group.readiness.include=readinessState,camelReadinessState" })
@DirtiesContext
class ReadinessProbeTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(OneRedissonClient.class)
    static class App {

        @Bean
        RouteBuilder consumer() {
            return new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:probes").routeId("probes-consumer").log("${body}");
                }
            };
        }
    }

    @Autowired
    private HealthEndpoint health;
    @Autowired
    private RedisServerProcess redisServer;

    @Test
    void theReadinessProbeFailsWhileRedisIsDownAndTheLivenessProbeDoesNot() {
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(probes()).isEqualTo("readiness=UP liveness=UP"));

        redisServer.stop();
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(probes()).isEqualTo("readiness=OUT_OF_SERVICE liveness=UP"));

        redisServer.restart();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(probes()).isEqualTo("readiness=UP liveness=UP"));
    }

    private String probes() {
        return "readiness=" + status("readiness") + " liveness=" + status("liveness");
    }

    private String status(String group) {
        HealthDescriptor descriptor = health.healthForPath(group);
        return descriptor == null ? "no group " + group : descriptor.getStatus().toString();
    }
}
