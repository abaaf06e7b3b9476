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
import java.util.concurrent.CompletableFuture;

import io.github.camelredisdelay.RedisDelayConsumer;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.junit.jupiter.api.Test;

import static io.github.camelredisdelay.faults.RefusingRedis.assertPlain;
import static io.github.camelredisdelay.faults.RefusingRedis.assertRefusalSaid;
import static io.github.camelredisdelay.faults.RefusingRedis.assertResumed;
import static io.github.camelredisdelay.faults.RefusingRedis.failure;
import static io.github.camelredisdelay.faults.RefusingRedis.node;
import static io.github.camelredisdelay.faults.RefusingRedis.refuses;
import static io.github.camelredisdelay.faults.RefusingRedis.scheduleDelivered;
import static org.awaitility.Awaitility.await;

/**
 * Redis answers everyone BUSY (another client's long script): a schedule fails saying so in plain words, naming the
 * message and the queue, and stores nothing; consumers and the transfer task log the reason once and resume by
 * themselves; readiness says what is going on; nothing is lost.
 */
class BusyRedisTest extends FaultTestSupport {

    @Test
    void whileAnotherClientsScriptKeepsRedisBusy() throws Exception {
        RedisServerProcess server = redisProcess();
        server.command("CONFIG", "SET", "lua-time-limit", "100");
        DeliveryLog deliveries = DeliveryLog.inMemory();
        CamelContext node = node(RedisServerExtension.redisUrl(), keyPrefix, deliveries);
        ProducerTemplate producer = node.createProducerTemplate();
        scheduleDelivered(producer, deliveries, "before");
        try (LogLines consumerLog = LogLines.of(RedisDelayConsumer.class.getPackageName())) {
            CompletableFuture<Void> script = CompletableFuture.runAsync(() -> {
                try {
                    server.command("EVAL", "local i = 0 while true do i = i + 1 end", "0");
                } catch (RuntimeException killedOrTimedOut) {
                    // SCRIPT KILL ends it with an error reply
                }
            });
            try {
                await("Redis answers BUSY").atMost(Duration.ofSeconds(10)).ignoreExceptions()
                        .until(() -> refuses(server, "BUSY"));
                Exception refused = failure(producer, "during");
                assertPlain(refused, "during", "busy running another client's script");
                assertRefusalSaid(node, consumerLog, "busy running another client's script");
            } finally {
                await("the script killed").atMost(Duration.ofSeconds(10)).ignoreExceptions()
                        .until(() -> "OK".equals(server.command("SCRIPT", "KILL")));
                script.join();
                await("the script's end").atMost(Duration.ofSeconds(10)).ignoreExceptions()
                        .until(() -> "OK".equals(server.command("CONFIG", "SET", "lua-time-limit", "5000")));
            }
            assertResumed(node, producer, deliveries);
        }
    }
}
