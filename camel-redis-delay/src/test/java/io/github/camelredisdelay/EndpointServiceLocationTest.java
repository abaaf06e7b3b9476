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

import java.util.List;
import java.util.Map;

import io.github.camelredisdelay.internal.ConnectedClient;
import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.spi.EndpointServiceRegistry.EndpointService;
import org.junit.jupiter.api.Test;
import org.redisson.config.Config;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An endpoint says where its queue's Redis is, as Camel's components do ({@code EndpointServiceLocation}): Camel's
 * service registry lists it ({@code camel get service}, the {@code service} dev console), and its tracer and JMX show
 * it.
 */
@CamelSide
class EndpointServiceLocationTest extends RedisDelayTestSupport {

    @Test
    void aConsumerAndAProducerAreListedWithTheRedisOfTheirQueue() throws Exception {
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders").routeId("expire").log("${body}");
                from("direct:place").routeId("place").to("redis-delay:orders");
            }
        });
        context.createProducerTemplate().sendBody("direct:place", "order-1");

        List<EndpointService> services = servicesOf(context);

        // the consumer's route, and every endpoint of the CamelContext as one sent to
        assertThat(services).extracting(EndpointService::getDirection).containsExactlyInAnyOrder("in", "out");
        assertThat(services).allSatisfy(service -> {
            assertThat(service.getServiceUrl()).isEqualTo(RedisServerExtension.redisUrl());
            assertThat(service.getServiceProtocol()).isEqualTo("redis");
            assertThat(service.getServiceMetadata()).isEqualTo(Map.of("queue", "orders", "keyPrefix", keyPrefix));
        });
    }

    @Test
    void anAddressIsListedWithItsPasswordMasked() throws Exception {
        // the test server's default user has no password: any one is accepted
        String address = RedisServerExtension.redisUrl().replaceFirst("//", "//default:s3cretPw@");
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders?address=" + address).routeId("expire").log("${body}");
            }
        });

        // Camel lists an endpoint a route consumes from as "out" too
        assertThat(servicesOf(context)).isNotEmpty().extracting(EndpointService::getServiceUrl)
                .containsOnly(RedisServerExtension.redisUrl().replaceFirst("//", "//default:xxxxxx@"));
    }

    @Test
    void aClientOfSeveralServersIsNamedByTheAddressesItsConfigurationGives() {
        Config cluster = new Config();
        cluster.useClusterServers().addNodeAddress("redis://node-1:7000", "redis://:s3cretPw@node-2:7000");
        Config sentinels = new Config();
        sentinels.useSentinelServers().setMasterName("queues").addSentinelAddress("redis://s-1:26379",
                "redis://s-2:26379");
        Config replicated = new Config();
        replicated.useReplicatedServers().addNodeAddress("rediss://r-1:6380", "rediss://r-2:6380");
        Config masterAndReplica = new Config();
        masterAndReplica.useMasterSlaveServers().setMasterAddress("redis://m:6379").addSlaveAddress("redis://s:6379");

        assertThat(List.of(cluster, sentinels, replicated, masterAndReplica))
                .extracting(config -> ConnectedClient.owned(config, "a test configuration").addresses())
                .containsExactly("redis://node-1:7000,redis://:xxxxxx@node-2:7000", "redis://s-1:26379,redis://s-2:26379",
                        "rediss://r-1:6380,rediss://r-2:6380", "redis://m:6379,redis://s:6379");
    }

    private static List<EndpointService> servicesOf(CamelContext context) {
        return context.getCamelContextExtension().getEndpointServiceRegistry().listAllEndpointServices().stream()
                .filter(service -> "redis-delay".equals(service.getComponent())).toList();
    }
}
