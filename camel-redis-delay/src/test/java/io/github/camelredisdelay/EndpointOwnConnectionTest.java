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

import io.github.camelredisdelay.embedded.RedisBinary;
import io.github.camelredisdelay.embedded.RedisServerOptions;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The component page: "An endpoint that sets any of redissonClient, address and redissonConfig replaces the component's
 * choice with its own". The component's {@code username}, {@code password} and {@code database} are options "for the
 * connection to address" (the component's), yet an endpoint that chooses its own connection keeps them: beside the
 * endpoint's own client they fail its start (the endpoint cannot unset them), and with the endpoint's own address they
 * are sent to that other server (the component's password included).
 */
@CamelSide
class EndpointOwnConnectionTest extends RedisDelayTestSupport {

    private static CamelContext contextWithComponentDatabase(String uri, RedissonClient bean) throws Exception {
        CamelContext context = new DefaultCamelContext();
        context.getShutdownStrategy().setTimeout(10);
        if (bean != null) {
            context.getRegistry().bind("auditClient", bean);
        }
        RedisDelayComponent component = new RedisDelayComponent();
        component.setAutowiredEnabled(false);
        component.getConfiguration().setAddress(RedisServerExtension.redisUrl());
        component.getConfiguration().setDatabase(3);
        context.addComponent("redis-delay", component);
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:in").to(uri);
            }
        });
        return context;
    }

    @Test
    void anEndpointsOwnClientIsUsedBesideTheComponentsAddressAndDatabase() throws Exception {
        Config config = new Config();
        config.useSingleServer().setAddress(RedisServerExtension.redisUrl()).setConnectionMinimumIdleSize(1);
        RedissonClient audit = Redisson.create(config);
        try (CamelContext context = contextWithComponentDatabase(
                "redis-delay:audit?delay=1h&keyPrefix=" + keyPrefix + "&redissonClient=#bean:auditClient", audit)) {
            context.start();

            Exchange sent = context.createProducerTemplate().send("direct:in", e -> e.getMessage().setBody("audit"));

            assertThat(sent.getException()).as("scheduled through the endpoint's own client").isNull();
            assertThat(redis().getMap(key("audit", "msg")).size()).isEqualTo(1);
        } finally {
            audit.shutdown();
        }
    }

    @Test
    void anEndpointsOwnAddressDoesNotInheritTheDatabaseOfTheComponentsAddress() throws Exception {
        RedisBinary binary
                = RedisBinary.select(System.getProperty(RedisServerExtension.BINARY_PROPERTY, RedisBinary.PATH_CHOICE));
        try (RedisServerProcess other = RedisServerProcess.start(binary, RedisServerOptions.defaults());
             CamelContext context = contextWithComponentDatabase(
                     "redis-delay:audit?delay=1h&keyPrefix=" + keyPrefix + "&address=" + other.uri(), null)) {
            context.start();

            context.createProducerTemplate().sendBody("direct:in", "audit");

            assertThat(other.command("HLEN", keyPrefix + ":{audit}:msg"))
                    .as("in database 0 of the endpoint's Redis, which names no database").isEqualTo("1");
        }
    }
}
