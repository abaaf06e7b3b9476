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
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * health-check-consumer-enabled=false switches the queue consumers' Redis checks off: with the README's readiness group
 * the pod must still be ready while its routes run and Redis is fine. The application is {@link ActuatorHealthTest}'s.
 */
@SpringBootTest(classes = ActuatorHealthTest.App.class,
                properties = {
                        "camel.component.redis-delay.health-check-consumer-enabled=false",
                        "management.endpoints.jmx.exposure.include=health",
                        "management.endpoint.health.probes.enabled=true",
                        "management.endpoint.health.group.readiness.include=readinessState,camelReadinessState" })
@DirtiesContext
class ConsumerChecksSwitchedOffTest {

    @Autowired
    private HealthEndpoint health;
    @Autowired
    private CamelContext camelContext;

    @Test
    void readinessIsUpWhileTheRouteRunsAndRedisAnswers() {
        assertThat(camelContext.getRouteController().getRouteStatus("health-consumer").isStarted()).isTrue();
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(health.healthForPath("readiness").getStatus().toString()).isEqualTo("UP"));
    }
}
