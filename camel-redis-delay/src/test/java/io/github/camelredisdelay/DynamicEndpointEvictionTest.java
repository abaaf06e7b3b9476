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
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Endpoint;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.support.LifecycleStrategySupport;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code toD} with a per-message part in the URI ({@code ?delay=${header.wait}}, a queue per tenant) creates an
 * endpoint per distinct URI. Camel keeps at most {@code CamelMaximumEndpointCacheSize} (1,000 by default) of them in
 * its registry and drops the oldest without stopping them ("they may still be in use"), and stops only those still in
 * the registry when the context stops. This component ties its Redis client, transfer tasks and shard-count checks to
 * the endpoint's start and stop, so every dropped endpoint keeps them for good.
 */
@CamelSide
class DynamicEndpointEvictionTest extends RedisDelayTestSupport {

    private static final int ENDPOINT_CACHE = 10;
    private static final int DISTINCT_DELAYS = 30;
    private static final int TENANTS = 20;
    private static final int ROUNDS = 3;

    @Override
    protected boolean usesSharedClient() {
        // the component creates its client from the address and shuts it down after its last endpoint stopped
        return false;
    }

    @Test
    void stoppingTheContextStopsEveryEndpointThatToDCreatedAndShutsTheComponentsClientDown() throws Exception {
        List<RedisDelayEndpoint> created = new CopyOnWriteArrayList<>();
        CamelContext node = startRecordingEndpoints("redis-delay:orders?delay=${header.wait}", created);
        ProducerTemplate template = node.createProducerTemplate();
        for (int i = 0; i < DISTINCT_DELAYS; i++) {
            long wait = 3_600_000L + i;
            Exchange sent = template.send("direct:order", e -> {
                e.getMessage().setBody("order");
                e.getMessage().setHeader("wait", wait);
            });
            assertThat(sent.getException()).isNull();
        }
        assertThat(dueSet("orders").size()).isEqualTo(DISTINCT_DELAYS);
        assertThat(created).hasSize(DISTINCT_DELAYS);
        RedissonClient client = created.get(0).client().get();
        RedisDelayComponent component = node.getComponent("redis-delay", RedisDelayComponent.class);

        node.stop();

        // found: 20 of the 30 endpoints (those Camel dropped from its registry) are still started, the queue's
        // transfer task still runs, and the Redisson client the component created (its Netty threads and
        // connections) is never shut down
        assertThat(created).filteredOn(RedisDelayEndpoint::isStarted).isEmpty();
        assertThat(component.runningTransferTasks()).isZero();
        assertThat(client.isShutdown()).isTrue();
    }

    @Test
    void aQueuePerTenantKeepsOneStartedEndpointPerUriHoweverOftenCamelEvictsAndRecreatesIt() throws Exception {
        Set<RedisDelayEndpoint> created = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
        CamelContext node = startRecordingEndpoints("redis-delay:tenant-${header.tenant}?delay=1h", created);
        ProducerTemplate template = node.createProducerTemplate();
        for (int round = 0; round < ROUNDS; round++) {
            sendToEachTenant(template);
        }
        assertThat(dueSet("tenant-0").size()).isEqualTo(ROUNDS);
        assertThat(dueSet("tenant-" + (TENANTS - 1)).size()).isEqualTo(ROUNDS);

        // found: every URI Camel evicted and created again left its former endpoint started for good (all 60 were,
        // growing with every round), each with its share of the queue's check and statistics
        assertThat(created).filteredOn(RedisDelayEndpoint::isStarted).hasSizeLessThanOrEqualTo(TENANTS);
    }

    /**
     * {@code toD} with its cache turned off ({@code cacheSize=-1}, for URIs that are seldom the same twice) creates an
     * endpoint and a producer for each exchange, and stops both after it.
     */
    @Test
    void toDWithItsCacheTurnedOffLeavesNoEndpointRunningAfterItsExchanges() throws Exception {
        CamelContext node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:order").toD("redis-delay:tenant-${header.tenant}?delay=1h", -1);
            }
        });
        node.start();
        ProducerTemplate template = node.createProducerTemplate();
        sendToEachTenant(template);
        assertThat(dueSet("tenant-" + (TENANTS - 1)).size()).isEqualTo(1);

        // found: each tenant's endpoint stays started, with its queue's transfer task, until the context stops
        RedisDelayComponent component = node.getComponent("redis-delay", RedisDelayComponent.class);
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(component.runningTransferTasks()).isZero());
    }

    /** Sends one order to direct:order for each of the {@value #TENANTS} tenants (header tenant), each stored. */
    private static void sendToEachTenant(ProducerTemplate template) {
        for (int tenant = 0; tenant < TENANTS; tenant++) {
            int sentTo = tenant;
            Exchange sent = template.send("direct:order", e -> {
                e.getMessage().setBody("order");
                e.getMessage().setHeader("tenant", sentTo);
            });
            assertThat(sent.getException()).isNull();
        }
    }

    /**
     * Starts a context whose endpoint cache holds {@value #ENDPOINT_CACHE} endpoints, with a route from direct:order to
     * {@code toD}, adding every redis-delay endpoint Camel creates to {@code created}.
     */
    private CamelContext startRecordingEndpoints(String toD, Collection<RedisDelayEndpoint> created) throws Exception {
        CamelContext node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:order").toD(toD);
            }
        });
        node.getGlobalOptions().put(Exchange.MAXIMUM_ENDPOINT_CACHE_SIZE, String.valueOf(ENDPOINT_CACHE));
        node.addLifecycleStrategy(new LifecycleStrategySupport() {
            @Override
            public void onEndpointAdd(Endpoint endpoint) {
                if (endpoint instanceof RedisDelayEndpoint redisDelay) {
                    created.add(redisDelay);
                }
            }
        });
        node.start();
        return node;
    }
}
