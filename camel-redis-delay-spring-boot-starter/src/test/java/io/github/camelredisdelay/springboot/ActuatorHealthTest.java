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
import java.util.Map;

import io.github.camelredisdelay.embedded.RedisServerProcess;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.health.actuate.endpoint.CompositeHealthDescriptor;
import org.springframework.boot.health.actuate.endpoint.HealthDescriptor;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.actuate.endpoint.IndicatedHealthDescriptor;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The queue consumer's Camel health check, seen through Spring Boot's actuator while Redis stops and starts, and the
 * Kubernetes probes (/actuator/health/readiness and /liveness): Spring Boot's readiness group holds only its own
 * readinessState, so the Camel checks reach it only through camel-spring-boot's camelReadinessState, which the README's
 * configuration adds. The readiness probe then fails while Redis does not answer and passes again once it does; the
 * liveness probe stays UP, so Kubernetes does not restart the pods for an outage of Redis.
 */
@SpringBootTest(classes = ActuatorHealthTest.App.class,
                properties = {
                        "management.endpoints.jmx.exposure.include=health",
                        "management.endpoint.health.probes.enabled=true",
                        "management.endpoint.health.group.readiness.include=readinessState,camelReadinessState" })
@DirtiesContext
class ActuatorHealthTest {

    private static final String CHECK = "consumer:health-consumer";

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(OneRedissonClient.class)
    static class App {

        @Bean
        RouteBuilder consumer() {
            return new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:health").routeId("health-consumer").log("${body}");
                }
            };
        }
    }

    @Autowired
    private HealthEndpoint health;
    @Autowired
    private RedisServerProcess redisServer;

    @Test
    void healthIsDownAndReadinessFailsWhileRedisIsStoppedAndBothAreUpAfterItRestartsWhileLivenessStaysUp() {
        String up = "UP, " + CHECK + "=UP; readiness=UP liveness=UP";
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(shown()).isEqualTo(up));

        redisServer.stop();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(
                () -> assertThat(shown()).isEqualTo("DOWN, " + CHECK + "=DOWN; readiness=OUT_OF_SERVICE liveness=UP"));

        redisServer.restart();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(shown()).isEqualTo(up));
    }

    /**
     * The overall status, the consumer check's state and the probes' statuses, e.g.
     * {@code ...; readiness=UP liveness=UP}.
     */
    private String shown() {
        return health() + "; readiness=" + status("readiness") + " liveness=" + status("liveness");
    }

    private String status(String group) {
        HealthDescriptor descriptor = health.healthForPath(group);
        return descriptor == null ? "no group " + group : descriptor.getStatus().toString();
    }

    /**
     * The overall status and the consumer check's state as the actuator shows them, e.g. {@code DOWN,
     * consumer:health-consumer=DOWN}; the whole health tree when the check is not in it, so a failure says why.
     */
    private String health() {
        HealthDescriptor root = health.health();
        if (root instanceof CompositeHealthDescriptor composite) {
            for (HealthDescriptor component : composite.getComponents().values()) {
                if (component instanceof IndicatedHealthDescriptor indicated && indicated.getDetails().containsKey(CHECK)) {
                    return root.getStatus() + ", " + CHECK + "=" + indicated.getDetails().get(CHECK);
                }
            }
            Map<String, String> tree = new java.util.TreeMap<>();
            composite.getComponents().forEach((name, component) -> tree.put(name, component.getStatus()
                                                                                  + (component instanceof IndicatedHealthDescriptor indicated
                                                                                          ? " " + indicated.getDetails()
                                                                                          : "")));
            return root.getStatus() + " without " + CHECK + ": " + tree;
        }
        return root.getStatus() + " without components";
    }
}
