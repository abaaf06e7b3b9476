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

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application with two meter registries (say Prometheus and another backend), none named {@code metricsRegistry}:
 * Spring Boot then adds its composite of both as the primary MeterRegistry, and the queue's meters are bound there, as
 * camel-micrometer binds Camel's own, so both backends see them.
 */
@SpringBootTest(classes = TwoMeterRegistriesTest.App.class)
class TwoMeterRegistriesTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(OneRedissonClient.class)
    static class App {

        @Bean
        SimpleMeterRegistry firstBackend() {
            return new SimpleMeterRegistry();
        }

        @Bean
        SimpleMeterRegistry secondBackend() {
            return new SimpleMeterRegistry();
        }

        @Bean
        RouteBuilder scheduling() {
            return new RouteBuilder() {
                @Override
                public void configure() {
                    from("direct:schedule").to("redis-delay:metered?delay=1h");
                }
            };
        }
    }

    @Autowired
    private MeterRegistry primary;
    @Autowired
    @Qualifier("secondBackend")
    private SimpleMeterRegistry secondBackend;
    @Autowired
    private ProducerTemplate producer;

    @Test
    void theQueuesMetersAreInThePrimaryCompositeRegistryAndSoInEachBackend() {
        producer.sendBody("direct:schedule", "job");

        assertThat(primary).as("Spring Boot's composite of both registries").isInstanceOf(CompositeMeterRegistry.class);
        assertThat(primary.find("camel.redis.delay.scheduled").tag("queue", "metered").counter())
                .as("the queue's scheduled counter in the primary registry").isNotNull()
                .satisfies(counter -> assertThat(counter.count()).isEqualTo(1));
        assertThat(secondBackend.find("camel.redis.delay.scheduled").tag("queue", "metered").counter())
                .as("the queue's scheduled counter in a backend").isNotNull()
                .satisfies(counter -> assertThat(counter.count()).isEqualTo(1));
    }
}
