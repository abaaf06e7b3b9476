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

import java.time.Duration;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.HealthChecks;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.Producer;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.health.HealthCheck;
import org.apache.camel.health.HealthCheckHelper;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Camel stops the endpoints only a removed route used (a route reloaded in development, a route a route controller
 * removes), also when a long-lived ProducerTemplate (Spring's bean, say) holds a producer of that very endpoint: the
 * producer goes on scheduling rather than failing every exchange until the application restarts.
 */
@CamelSide
class RemovedRouteEndpointTest extends RedisDelayTestSupport {

    @Test
    void aTemplatesProducerOfTheEndpointARemovedRouteConsumedFromGoesOnScheduling() throws Exception {
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs?delay=1h").routeId("consumer").log("${body}");
            }
        });
        ProducerTemplate template = node.createProducerTemplate();
        template.sendBody("redis-delay:jobs?delay=1h", "before");
        node.getRouteController().stopRoute("consumer");
        node.removeRoute("consumer");

        Exchange after = template.send("redis-delay:jobs?delay=1h", e -> e.getMessage().setBody("after"));

        assertThat(after.getException()).isNull();
        assertThat(redis().getMap(key("jobs", "msg")).size()).as("both stored").isEqualTo(2);
    }

    /**
     * A producer created on an endpoint the application holds after it was stopped (an endpoint a removed route used,
     * kept in a field) starts it again and schedules, as a template's producer does; before, its start failed with a
     * NullPointerException.
     */
    @Test
    void aProducerCreatedOnAStoppedEndpointStartsItAndSchedules() throws Exception {
        CamelContext node = startContext();
        RedisDelayEndpoint endpoint = node.getEndpoint("redis-delay:jobs?delay=1h", RedisDelayEndpoint.class);
        endpoint.stop();

        Producer producer = endpoint.createProducer();
        producer.start();
        try {
            Exchange exchange = endpoint.createExchange();
            exchange.getMessage().setBody("after the stop");
            producer.process(exchange);

            assertThat(exchange.getException()).as("the schedule's outcome").isNull();
            assertThat(redis().getMap(key("jobs", "msg")).size()).as("stored").isEqualTo(1);
        } finally {
            producer.stop();
        }
    }

    /**
     * The template's producer goes on scheduling on the endpoint started again, and its readiness check follows it
     * there: it does not keep probing through what the endpoint's earlier start held.
     */
    @Test
    void aTemplatesProducerStaysReadyAfterTheRouteThatSharedItsEndpointIsRemoved() throws Exception {
        CamelContext node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs?delay=1h").routeId("consumer").log("${body}");
            }
        });
        HealthChecks.enableConsumersAndProducers(node);
        node.start();
        ProducerTemplate template = node.createProducerTemplate();
        template.sendBody("redis-delay:jobs?delay=1h", "before");
        node.getRouteController().stopRoute("consumer");
        node.removeRoute("consumer");

        Exchange after = template.send("redis-delay:jobs?delay=1h", e -> e.getMessage().setBody("after"));

        assertThat(after.getException()).as("the producer schedules").isNull();
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(HealthCheckHelper.invokeReadiness(node))
                .filteredOn(result -> result.getCheck().getId().equals("producer:redis-delay-jobs?delay=1h"))
                .isNotEmpty()
                .allSatisfy(result -> assertThat(result.getState())
                        .as("readiness of the template's producer: %s", result.getMessage().orElse(""))
                        .isEqualTo(HealthCheck.State.UP)));
    }
}
