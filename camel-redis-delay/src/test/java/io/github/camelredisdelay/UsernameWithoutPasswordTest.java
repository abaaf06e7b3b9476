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

import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.test.NeedsRedisProcess;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The {@code username} option names the Redis ACL user of the connection to {@code address}. Redis logs a user in only
 * with {@code AUTH <user> <password>}, and the client sends no AUTH without a password: a username alone was ignored,
 * and the component ran as Redis' default user, with its rights rather than the user's. The test server's default user
 * has no password, as an unsecured server's has; the ACL user here may touch none of the queue's keys.
 */
@NeedsRedisProcess
class UsernameWithoutPasswordTest extends RedisDelayTestSupport {

    private static final String USER = "queues-elsewhere";

    @BeforeEach
    void createUser() {
        server().command("ACL", "SETUSER", USER, "on", "nopass", "resetkeys", "~elsewhere:*", "+@all");
    }

    @AfterEach
    void deleteUser() {
        server().command("ACL", "DELUSER", USER);
    }

    private static RedisServerProcess server() {
        return RedisServerExtension.process()
                .orElseThrow(() -> new IllegalStateException("this test adds an ACL user to its private redis-server"));
    }

    @Test
    void aUsernameWithoutAPasswordFailsTheStartupInsteadOfConnectingAsTheDefaultUser() throws Exception {
        CamelContext context = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:in").to("redis-delay:orders?delay=1h&address=" + RedisServerExtension.redisUrl()
                                     + "&username=" + USER);
            }
        });

        Throwable failure = catchThrowable(() -> {
            context.start();
            context.createProducerTemplate().sendBody("direct:in", "order-1");
        });

        assertThat(redis().getMap(key("orders", "msg")).size())
                .as("messages stored as Redis' default user, the username ignored").isZero();
        assertThat(failure).rootCause().isInstanceOf(IllegalArgumentException.class).hasMessageContaining("username")
                .hasMessageContaining("queue orders").hasMessageContaining("password");
    }
}
