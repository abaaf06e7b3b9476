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
import java.util.concurrent.atomic.AtomicInteger;

import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.test.NeedsRedisProcess;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A test JVM that starts and stops many CamelContexts one after another, as test suites do, each with its own client of
 * the component: every stop ends that context's connections, subscriptions and Redisson threads.
 */
@NeedsRedisProcess
class RepeatedContextsTest extends RedisDelayTestSupport {

    private static final int CONTEXTS = 8;

    @Override
    protected boolean usesSharedClient() {
        return false;
    }

    @Test
    void contextsStartedAndStoppedOneAfterAnotherLeaveNothingBehind() throws Exception {
        RedisServerProcess server = RedisServerExtension.process().orElseThrow();
        Leftovers before = Leftovers.of(server);
        for (int i = 0; i < CONTEXTS; i++) {
            AtomicInteger delivered = new AtomicInteger();
            CamelContext context = startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:orders").process(exchange -> delivered.incrementAndGet());
                    from("redis-delay:invoices?consumerType=polling").log("${body}");
                }
            });
            context.createProducerTemplate().sendBody("redis-delay:orders", "order " + i);
            await().atMost(Duration.ofSeconds(10)).until(() -> delivered.get() == 1);

            context.stop();
        }

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(Leftovers.of(server)).isEqualTo(before));
    }

    /** What a client leaves: connections to the server, pattern subscriptions and Redisson's threads in this JVM. */
    private record Leftovers(long connections, String patternSubscriptions, long redissonThreads) {

        static Leftovers of(RedisServerProcess server) {
            return new Leftovers(
                    server.command("CLIENT", "LIST").lines().count(),
                    server.command("PUBSUB", "NUMPAT").trim(),
                    Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("redisson")).count());
        }
    }
}
