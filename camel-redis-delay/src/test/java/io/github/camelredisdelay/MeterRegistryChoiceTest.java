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
package io.github.camelredisdelay;

import java.util.Map;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which MeterRegistry a queue's meters go to when the Camel registry holds several and none is named
 * {@code metricsRegistry}: the only composite one, as camel-micrometer chooses; with no such choice, none, and a
 * warning says which registries were found and how to choose one.
 */
@CamelSide
class MeterRegistryChoiceTest extends RedisDelayTestSupport {

    /** A node, started, with {@code registries} bound under their names, scheduling one message to jobs. */
    private CamelContext schedulingNode(Map<String, MeterRegistry> registries) throws Exception {
        CamelContext context = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:schedule").to("redis-delay:jobs?delay=1h");
            }
        });
        registries.forEach(context.getRegistry()::bind);
        context.start();
        context.createProducerTemplate().sendBody("direct:schedule", "job");
        return context;
    }

    @Test
    void theMetersGoToTheOnlyCompositeRegistryBesideItsBackend() throws Exception {
        SimpleMeterRegistry backend = new SimpleMeterRegistry();
        CompositeMeterRegistry composite = new CompositeMeterRegistry().add(backend);

        schedulingNode(Map.of("backend", backend, "composite", composite));

        assertThat(composite.find("camel.redis.delay.scheduled").tag("queue", "jobs").counter())
                .as("the scheduled counter in the composite registry").isNotNull()
                .satisfies(counter -> assertThat(counter.count()).isOne());
        assertThat(backend.find("camel.redis.delay.scheduled").tag("queue", "jobs").counter().count()).isOne();
    }

    @Test
    void twoRegistriesWithoutAChoiceAreNamedInAWarning() throws Exception {
        SimpleMeterRegistry first = new SimpleMeterRegistry();
        SimpleMeterRegistry second = new SimpleMeterRegistry();

        try (LogLines log = LogLines.of(MicrometerQueueMeters.class)) {
            schedulingNode(Map.of("first", first, "second", second));

            assertThat(log.lines()).singleElement().asString().startsWith("WARN ").contains("'jobs'", "first", "second",
                    "metricsRegistry");
        }
        assertThat(first.getMeters()).isEmpty();
        assertThat(second.getMeters()).isEmpty();
    }
}
