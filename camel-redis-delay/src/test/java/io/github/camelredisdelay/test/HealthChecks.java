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

import java.util.Map;
import java.util.stream.Collectors;

import org.apache.camel.CamelContext;
import org.apache.camel.health.HealthCheck;
import org.apache.camel.health.HealthCheckHelper;
import org.apache.camel.health.HealthCheckRegistry;
import org.apache.camel.impl.health.ConsumersHealthCheckRepository;
import org.apache.camel.impl.health.ProducersHealthCheckRepository;

/** Camel health checks of a test's CamelContext. */
public final class HealthChecks {

    private HealthChecks() {
    }

    /**
     * Registers the consumer and producer checks, as camel-main does with {@code camel.health.consumers-enabled} and
     * {@code camel.health.producers-enabled}; call it before the context starts.
     */
    public static void enableConsumersAndProducers(CamelContext context) {
        HealthCheckRegistry registry = context.getCamelContextExtension().getContextPlugin(HealthCheckRegistry.class);
        registry.register(new ConsumersHealthCheckRepository());
        ProducersHealthCheckRepository producers = new ProducersHealthCheckRepository();
        producers.setCamelContext(context);
        producers.setEnabled(true);
        registry.register(producers);
    }

    /** The check of the context's first producer with one. */
    public static HealthCheck producerCheck(CamelContext context) {
        HealthCheckRegistry registry = context.getCamelContextExtension().getContextPlugin(HealthCheckRegistry.class);
        return registry.getRepository("producers").orElseThrow().stream().findFirst().orElseThrow();
    }

    /** The state of every readiness check Camel reports, by check id. */
    public static Map<String, HealthCheck.State> readiness(CamelContext context) {
        return HealthCheckHelper.invokeReadiness(context).stream()
                .collect(Collectors.toMap(result -> result.getCheck().getId(), HealthCheck.Result::getState,
                        (first, second) -> first));
    }

    /** The message of each readiness check that is DOWN, by check id. */
    public static Map<String, String> downReasons(CamelContext context) {
        return HealthCheckHelper.invokeReadiness(context).stream()
                .filter(result -> result.getState() == HealthCheck.State.DOWN)
                .collect(Collectors.toMap(result -> result.getCheck().getId(), result -> result.getMessage().orElse(""),
                        (first, second) -> first));
    }
}
