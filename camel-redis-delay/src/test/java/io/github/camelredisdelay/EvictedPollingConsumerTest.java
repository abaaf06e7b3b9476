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
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.internal.QueueKeys;
import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.ConsumerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.redisson.api.stream.StreamConsumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A ConsumerTemplate (or pollEnrich) whose cache evicts the polling consumer of an endpoint makes Camel remove that
 * endpoint from its registry and stop it, also when a route still consumes from it.
 */
@CamelSide
class EvictedPollingConsumerTest extends RedisDelayTestSupport {

    @Test
    void aRouteConsumingFromTheEndpointOfAnEvictedPollingConsumerGoesOnAndLeavesTheGroupAtItsStop() throws Exception {
        List<String> delivered = new CopyOnWriteArrayList<>();
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs").routeId("jobs").process(e -> delivered.add(e.getMessage().getBody(String.class)));
            }
        });
        RedisDelayEndpoint consumed = node.getEndpoint("redis-delay:jobs", RedisDelayEndpoint.class);
        ConsumerTemplate template = node.createConsumerTemplate(1);
        template.receiveBodyNoWait("redis-delay:jobs");
        template.receiveBodyNoWait("redis-delay:other");
        node.createProducerTemplate().sendBody("redis-delay:jobs", "job");
        await().atMost(Duration.ofSeconds(10)).until(() -> delivered.contains("job"));

        node.getRouteController().stopRoute("jobs");

        // found: Camel stopped the route's endpoint under its running consumer; the route's stop then failed with a
        // NullPointerException (logged by Camel's shutdown strategy) and left the consumer in the group
        assertThat(redis().getStream(key("jobs", "ready")).listConsumers(QueueKeys.GROUP))
                .extracting(StreamConsumer::getName).as("members of the group after the route stopped").isEmpty();
        assertThat(consumed.isStarted()).as("the route's endpoint").isTrue();
    }
}
