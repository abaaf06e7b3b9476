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

import java.nio.file.Files;
import java.nio.file.Path;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.main.Main;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code camel.component.<name>.configuration=#bean:<defaults>} is "a bean of shared defaults". Two redis-delay
 * components (two Redis servers: the orders' and the audit's) that share one such bean, each with its own address and
 * key prefix beside it, must each keep their own: the component takes the bean itself, not a copy, and sets the options
 * beside it on the bean, so the component configured last wins for both, and the first one's queues go to the other
 * Redis without a word.
 */
@CamelSide
class TwoComponentsSharedDefaultsTest extends RedisDelayTestSupport {

    @Test
    void twoComponentsSharingADefaultsBeanKeepTheirOwnAddressAndKeyPrefix(@TempDir Path directory) throws Exception {
        int otherPort = closedPort();
        String otherRedis = "redis://127.0.0.1:" + otherPort;
        Path properties = directory.resolve("application.properties");
        Files.writeString(properties, String.join("\n",
                "camel.component.redis-delay.configuration=#bean:delayDefaults",
                "camel.component.redis-delay.address=" + RedisServerExtension.redisUrl(),
                "camel.component.redis-delay.key-prefix=" + keyPrefix,
                "camel.component.audit-delay.configuration=#bean:delayDefaults",
                "camel.component.audit-delay.address=" + otherRedis,
                "camel.component.audit-delay.key-prefix=audit:delay", ""));
        RedisDelayConfiguration defaults = new RedisDelayConfiguration();
        defaults.setMaxDeliveries(9);

        Main main = new Main();
        main.bind("delayDefaults", defaults);
        main.bind("audit-delay", new RedisDelayComponent());
        main.setPropertyPlaceholderLocations("file:" + properties);
        main.configure().addRoutesBuilder(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:order").to("redis-delay:orders?delay=1h");
                from("direct:audit").to("audit-delay:events?delay=1h");
            }
        });
        try {
            main.start();
            CamelContext context = main.getCamelContext();
            RedisDelayConfiguration orders = context.getComponent("redis-delay", RedisDelayComponent.class)
                    .getConfiguration();
            RedisDelayConfiguration audit = context.getComponent("audit-delay", RedisDelayComponent.class)
                    .getConfiguration();

            assertThat(audit.getMaxDeliveries()).as("the shared default").isEqualTo(9);
            assertThat(orders.getMaxDeliveries()).as("the shared default").isEqualTo(9);
            assertThat(audit.getAddress()).as("the audit component's address").isEqualTo(otherRedis);
            assertThat(orders.getAddress()).as("the orders component's address").isEqualTo(RedisServerExtension.redisUrl());
            assertThat(orders.getKeyPrefix()).as("the orders component's key prefix").isEqualTo(keyPrefix);

            // and a schedule of the orders component reaches the orders' Redis
            Exception failure = context.createProducerTemplate()
                    .send("direct:order", e -> e.getMessage().setBody("order 1")).getException();
            assertThat(failure).as("schedule on the orders' Redis").isNull();
            assertThat(redis().getMap(key("orders", "msg")).size()).isEqualTo(1);
        } finally {
            main.stop();
        }
    }

    /**
     * A value the second component refuses names that component, whose properties hold it, not the first one's.
     */
    @Test
    void aValueTheSecondComponentRefusesIsNamedWithThatComponent() {
        Main main = new Main();
        main.bind("audit-delay", new RedisDelayComponent());
        main.addInitialProperty("camel.component.audit-delay.address", RedisServerExtension.redisUrl());
        main.addInitialProperty("camel.component.audit-delay.delay", "30M");
        main.configure().addRoutesBuilder(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:audit").to("audit-delay:events");
            }
        });
        try {
            assertThatThrownBy(main::start).rootCause().isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("delay option of component audit-delay").hasMessageContaining("'30M'");
        } finally {
            main.stop();
        }
    }

    /**
     * With several RedissonClient beans and none chosen, a second component's queue cannot tell which to use: the
     * startup fails naming that component's own property, not the first one's, which would hand the client to the other
     * component's queues and leave this one failing still.
     */
    @Test
    void severalClientBeansAndNoneChosenForTheSecondComponentNameThatComponentsProperty() {
        Config config = new Config();
        config.useSingleServer().setAddress(RedisServerExtension.redisUrl());
        RedissonClient cache = Redisson.create(config);
        Main main = new Main();
        main.bind("cacheClient", cache);
        main.bind("queueClient", redis());
        main.bind("audit-delay", new RedisDelayComponent());
        main.configure().addRoutesBuilder(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:audit").to("audit-delay:events");
            }
        });
        try {
            assertThatThrownBy(main::start).rootCause().isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("camel.component.audit-delay.redisson-client=#bean:<name>")
                    .hasMessageNotContaining("camel.component.redis-delay.");
        } finally {
            main.stop();
            cache.shutdown();
        }
    }
}
