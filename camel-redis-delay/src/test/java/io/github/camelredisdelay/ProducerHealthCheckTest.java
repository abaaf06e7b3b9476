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
import java.util.stream.Collectors;

import io.github.camelredisdelay.test.HealthChecks;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.health.HealthCheck;
import org.apache.camel.health.HealthCheckRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ProducerHealthCheckTest extends RedisDelayTestSupport {

    @Override
    protected boolean usesSharedClient() {
        // an endpoint's own address must count: the component creates the clients
        return false;
    }

    @Test
    void producersOfOneQueueNameOnTwoRedisServersAreCheckedEach() throws Exception {
        int closedPort = closedPort();
        CamelContext node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:here").to("redis-delay:orders?delay=1h");
                from("direct:there")
                        .to("redis-delay:orders?delay=1h&address=redis://user:secret@127.0.0.1:" + closedPort);
            }
        });
        HealthChecks.enableConsumersAndProducers(node);
        node.start();
        node.createProducerTemplate().sendBody("direct:here", "x");
        node.createProducerTemplate().send("direct:there", e -> e.getMessage().setBody("x"));

        // what Camel's readiness, the actuator and `camel health` go through: checks with equal ids count once
        Map<String, HealthCheck.State> producers = HealthCheckRegistry.get(node).stream()
                .filter(check -> check.getId().startsWith("producer:"))
                .collect(Collectors.toMap(HealthCheck::getId, check -> check.call().getState()));

        assertThat(producers).as("a check per producer endpoint, each with an id of its own").hasSize(2)
                .containsEntry("producer:redis-delay-orders?delay=1h", HealthCheck.State.UP)
                .containsValue(HealthCheck.State.DOWN);
        assertThat(producers).containsKey(
                "producer:redis-delay-orders?address=redis://user:xxxxxx@127.0.0.1:" + closedPort + "&delay=1h");
    }
}
