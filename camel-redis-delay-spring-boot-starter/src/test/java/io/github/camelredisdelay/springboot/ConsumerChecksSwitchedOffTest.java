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

import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * health-check-consumer-enabled=false switches the queue consumers' Redis checks off: with the README's readiness group
 * the pod must still be ready while its routes run and Redis is fine.
 */
@SpringBootTest(classes = ConsumerChecksSwitchedOffTest.App.class,
                properties = {
                        "camel.component.redis-delay.health-check-consumer-enabled=false",
                        "management.endpoints.jmx.exposure.include=health",
                        "management.endpoint.health.probes.enabled=true",
                        "management.endpoint.health.group.readiness.include=readinessState,camelReadinessState" })
@DirtiesContext
class ConsumerChecksSwitchedOffTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(OneRedissonClient.class)
    static class App {

        @Bean
        RouteBuilder consumer() {
            return new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:switched-off").routeId("switched-off-consumer").log("${body}");
                }
            };
        }
    }

    @Autowired
    private HealthEndpoint health;
    @Autowired
    private CamelContext camelContext;

    @Test
    void readinessIsUpWhileTheRouteRunsAndRedisAnswers() {
        assertThat(camelContext.getRouteController().getRouteStatus("switched-off-consumer").isStarted()).isTrue();
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(health.healthForPath("readiness").getStatus().toString()).isEqualTo("UP"));
    }
}
