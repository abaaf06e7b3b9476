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
package io.github.camelredisdelay.faults;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.github.camelredisdelay.RedisDelayConstants;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.test.ComponentThreads;
import io.github.camelredisdelay.test.LogLines;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The consumer's blocking background work (here: settlements Redis refused, tried again while it is out of memory) runs
 * on the component's own Camel-managed threads, named after the CamelContext and stopped with it, not on the JVM's
 * common ForkJoinPool, whose threads the application's parallel streams and futures need.
 */
class BackgroundWorkThreadsTest extends FaultTestSupport {

    @Test
    void settlementRetriesRunOnCamelThreadsNamedAfterTheContext() throws Exception {
        RedisServerProcess server = redisProcess();
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:retried?maxDeliveries=1&visibilityTimeout=1s").process(e -> {
                    throw new IllegalStateException("the shop is down");
                });
            }
        });
        List<String> retriedOn;
        try (LogLines settlement = LogLines.ofDebug(Class.forName("io.github.camelredisdelay.Settlement"))) {
            node.createProducerTemplate().sendBodyAndHeaders("redis-delay:retried", "order-1",
                    Map.of(RedisDelayConstants.MESSAGE_ID, "m1", RedisDelayConstants.DELAY, 1_500L));
            await("the consumer's first read").atMost(Duration.ofSeconds(10))
                    .until(() -> "1".equals(server.command("EXISTS", key("retried", "ready"))));
            // the dead letter of the failed delivery is refused, and so is each try again
            server.command("CONFIG", "SET", "maxmemory", "1");
            try {
                await("the refused settlement tried again").atMost(Duration.ofSeconds(20))
                        .until(() -> !settlement.threadsLogging("m1 on queue retried again").isEmpty());
                retriedOn = settlement.threadsLogging("m1 on queue retried again");
            } finally {
                server.command("CONFIG", "SET", "maxmemory", "0");
            }
        }
        node.stop();

        assertThat(retriedOn).as("threads that tried the settlement again")
                .allSatisfy(thread -> assertThat(thread).contains("(" + node.getName() + ")").contains("RedisDelay"));
        ComponentThreads.assertNoneLeftOf(node);
    }
}
