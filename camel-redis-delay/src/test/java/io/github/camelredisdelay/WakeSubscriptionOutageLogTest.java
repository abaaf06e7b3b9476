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
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.embedded.RedisBinary;
import io.github.camelredisdelay.embedded.RedisServerOptions;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.internal.WakeChannels;
import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.redisson.config.ConstantDelay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A context (or a route) that starts while the Redis of an application's client bean is down, the bean having reached
 * it before: Redisson fails the wake-up subscription with the error it also gives when its subscription connections are
 * all taken, and the component must not tell the operator that Redis is fine.
 */
class WakeSubscriptionOutageLogTest extends RedisDelayTestSupport {

    /** The application's client bean, shut down by the test: the server's restart leaves no client reconnecting. */
    private RedissonClient bean;

    @Override
    protected boolean usesSharedClient() {
        return false;
    }

    @Override
    protected void connectOnItsOwn(RedisDelayConfiguration configuration) {
        configuration.setRedissonClient(bean);
    }

    @Test
    void aWakeSubscriptionMadeWhileRedisIsDownIsLoggedAsRedisOutOfReachNotAsAClientShortage() throws Exception {
        // a server of its own: the clients of other tests in this JVM are left out of its stop and restart
        RedisBinary binary
                = RedisBinary.select(System.getProperty(RedisServerExtension.BINARY_PROPERTY, RedisBinary.PATH_CHOICE));
        try (RedisServerProcess server = RedisServerProcess.start(binary, RedisServerOptions.defaults())) {
            subscribeWhileDown(server);
        }
    }

    private void subscribeWhileDown(RedisServerProcess server) throws Exception {
        Config config = new Config();
        config.useSingleServer().setAddress(server.uri()).setRetryAttempts(1)
                .setRetryDelay(new ConstantDelay(Duration.ofMillis(200)));
        bean = Redisson.create(config);
        CamelContext first = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:order").to("redis-delay:orders?delay=1h");
            }
        });
        // the client bean reaches Redis; its context stops (a redeploy, a test suite's next context)
        first.createProducerTemplate().sendBody("direct:order", "order");
        first.stop();
        server.stop();
        CamelContext second = null;
        try (LogLines wake = LogLines.of(WakeChannels.class)) {
            second = startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:orders").log("${body}");
                }
            });
            await("the subscription's failure logged").atMost(Duration.ofSeconds(20))
                    .until(() -> !warnings(wake).isEmpty());

            // found: "Subscription to <prefix>:* failed: the Redis client ran out of subscription connections (not a
            // Redis outage): raise the Redisson settings subscriptionConnectionPoolSize or subscriptionsPerConnection"
            assertThat(warnings(wake)).first().asString().contains("cannot reach Redis")
                    .doesNotContain("not a Redis outage");
        } finally {
            server.restart();
            if (second != null) {
                second.stop();
            }
            bean.shutdown(0, 2, TimeUnit.SECONDS);
        }
    }

    @Test
    void aWakeSubscriptionTheClientHasNoSubscriptionConnectionForIsStillLoggedAsAClientShortage() throws Exception {
        Config config = new Config();
        config.useSingleServer().setAddress(RedisServerExtension.redisUrl()).setRetryAttempts(1)
                .setRetryDelay(new ConstantDelay(Duration.ofMillis(200))).setSubscriptionConnectionPoolSize(1)
                .setSubscriptionConnectionMinimumIdleSize(1).setSubscriptionsPerConnection(1);
        bean = Redisson.create(config);
        try (LogLines wake = LogLines.of(WakeChannels.class)) {
            // the application's own subscription takes the client's only one
            bean.getTopic(keyPrefix + "-app-events").addListener(String.class, (channel, message) -> {
            });
            CamelContext node = startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:orders").log("${body}");
                }
            });
            try {
                await("the subscription's failure logged").atMost(Duration.ofSeconds(20))
                        .until(() -> !warnings(wake).isEmpty());

                assertThat(warnings(wake)).first().asString().contains("subscriptionConnectionPoolSize")
                        .doesNotContain("cannot reach Redis");
            } finally {
                node.stop();
            }
        } finally {
            bean.shutdown(0, 2, TimeUnit.SECONDS);
        }
    }

    private static List<String> warnings(LogLines lines) {
        return lines.lines().stream().filter(line -> line.startsWith("WARN")).toList();
    }
}
