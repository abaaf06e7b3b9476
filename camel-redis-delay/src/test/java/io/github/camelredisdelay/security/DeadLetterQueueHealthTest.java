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
package io.github.camelredisdelay.security;

import java.time.Duration;

import io.github.camelredisdelay.RedisDelayConfiguration;
import io.github.camelredisdelay.embedded.RedisBinary;
import io.github.camelredisdelay.test.CamelNodes;
import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.HealthChecks;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.health.HealthCheck;
import org.junit.jupiter.api.Test;

import static org.awaitility.Awaitility.await;

/**
 * A consumer's readiness covers its dead-letter queue (its {@code shards} are checked there too): it must turn DOWN
 * while Redis refuses the writes of that queue, where every exhausted message would go.
 */
@CamelSide
class DeadLetterQueueHealthTest {

    private static final String USER = "camel-delay";
    private static final String PASSWORD = "dead-letter-health-secret";

    private final CamelNodes nodes = new CamelNodes();

    @Test
    void consumerIsDownWhileItsDeadLetterQueueRefusesWrites() throws Exception {
        RedisBinary binary = TestRedisBinary.selected();
        String version = TestRedisBinary.version(binary);
        try (AclRedisServer server = AclRedisServer.start(binary, USER, PASSWORD, ComponentAcl.rulesFor(version));
             nodes) {
            CamelContext node = nodes.create(options -> loggedIn(options, server), new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:payments?maxDeliveries=1").routeId("payments")
                            .throwException(new IllegalStateException("declined"));
                }
            });
            HealthChecks.enableConsumersAndProducers(node);
            node.start();
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> HealthChecks.readiness(node).get("consumer:payments") == HealthCheck.State.UP);

            // the queue's keys stay writable, those of its dead-letter queue become read-only; Redis 6.2 has no read-only
            // key patterns (%R~, Redis 7.0), so there they become out of reach
            if (ComponentAcl.takesRedis7Rules(version)) {
                server.changeRules(USER, "resetkeys", "~camel:delay:{payments}:*", "%R~camel:delay:{payments.dead}:*");
            } else {
                server.changeRules(USER, "resetkeys", "~camel:delay:{payments}:*");
            }
            node.createProducerTemplate().sendBody("redis-delay:payments", "payment");

            await("readiness of the consumer whose dead-letter queue refuses writes").atMost(Duration.ofSeconds(20))
                    .until(() -> HealthChecks.readiness(node).get("consumer:payments") == HealthCheck.State.DOWN);
        }
    }

    private static void loggedIn(RedisDelayConfiguration options, AclRedisServer server) {
        options.setKeyPrefix("camel:delay");
        options.setAddress(server.address());
        options.setUsername(USER);
        options.setPassword(PASSWORD);
    }
}
