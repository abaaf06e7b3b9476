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
import java.util.Map;
import java.util.stream.Collectors;

import io.github.camelredisdelay.test.HealthChecks;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.Producer;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.health.HealthCheck;
import org.apache.camel.health.HealthCheckRegistry;
import org.junit.jupiter.api.Test;
import org.redisson.client.codec.StringCodec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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

    /**
     * The producers of two routes register a check of one id each; stopping one removes the first check of that id
     * Camel holds, which is the running route's here: the stopped route's stays listed, and reports what the running
     * one's would (one endpoint, one connection). The last stop removes the last check.
     */
    @Test
    void theCheckOfTwoRoutesProducingToOneEndpointReflectsTheRunningOneAndGoesWithTheLast() throws Exception {
        CamelContext node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:first").routeId("first").to("redis-delay:orders?delay=1h&shards=1");
                from("direct:second").routeId("second").to("redis-delay:orders?shards=1&delay=1h");
            }
        });
        HealthChecks.enableConsumersAndProducers(node);
        node.start();

        node.getRouteController().stopRoute("second");
        node.createProducerTemplate().sendBody("direct:first", "x");

        assertThat(producerStates(node)).containsExactly(Map.entry("producer:redis-delay-orders?delay=1h&shards=1",
                HealthCheck.State.UP));
        node.getRouteController().stopRoute("first");
        assertThat(producerStates(node)).isEmpty();
    }

    /**
     * A producer the application holds (a template's, a {@code toD}'s) of an endpoint Camel dropped (the endpoint of a
     * removed route) runs beside another producer of the URI, which stops: both checks have one id, and Camel lists
     * one, maybe the stopped producer's; it reports what the running one's would, as the URI's lookup gets the same
     * endpoint back while a producer of it runs.
     */
    @Test
    void theCheckOfAProducerOfARefusedQueueStaysDownWhenAnotherProducerOfItsUriStops() throws Exception {
        // queue orders is stored in 1 shard, which the endpoints' shards=3 disagrees with: their writes are refused
        CamelContext old = startContext();
        old.createProducerTemplate().sendBody("redis-delay:orders?delay=1h", "waiting in the one shard");
        await().atMost(Duration.ofSeconds(10)).until(() -> "1".equals(
                redis().getMap(keyPrefix + ":{orders}:shards", StringCodec.INSTANCE).get("count")));
        old.stop();
        // as if its last confirmation were a minute old
        redis().getMap(keyPrefix + ":{orders}:shards", StringCodec.INSTANCE).put("seen", "0");
        String uri = "redis-delay:orders?delay=1h&shards=3";
        CamelContext node = createContext();
        HealthChecks.enableConsumersAndProducers(node);
        node.start();
        RedisDelayEndpoint first = node.getEndpoint(uri, RedisDelayEndpoint.class);
        Producer held = first.createProducer();
        held.start();
        node.removeEndpoint(first);
        RedisDelayEndpoint next = node.getEndpoint(uri, RedisDelayEndpoint.class);
        Producer passing = next.createProducer();
        passing.start();
        passing.stop();

        Exchange refused = first.createExchange();
        refused.getMessage().setBody("refused");
        held.process(refused);

        assertThat(refused.getException()).hasMessageContaining("shards=3");
        assertThat(producerStates(node)).as("the check of the producer that runs, whose writes are refused")
                .containsExactly(Map.entry("producer:redis-delay-orders?delay=1h&shards=3", HealthCheck.State.DOWN));
        held.stop();
        assertThat(producerStates(node)).isEmpty();
    }

    /**
     * The state of each producer check, by id, as Camel's readiness, the actuator and `camel health` get them: one
     * check per id.
     */
    private static Map<String, HealthCheck.State> producerStates(CamelContext node) {
        return HealthCheckRegistry.get(node).stream()
                .filter(check -> check.getId().startsWith("producer:"))
                .collect(Collectors.toMap(HealthCheck::getId, check -> check.call().getState()));
    }
}
