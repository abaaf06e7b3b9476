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
import java.util.concurrent.CompletableFuture;

import io.github.camelredisdelay.RedisDelayComponent;
import io.github.camelredisdelay.RedisDelayConstants;
import io.github.camelredisdelay.RedisDelayConsumer;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.test.HealthChecks;
import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.health.HealthCheck;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Redis answers everyone BUSY (another client's long script): a schedule fails saying so in plain words, naming the
 * message and the queue, and stores nothing; consumers and the transfer task log the reason once and resume by
 * themselves; readiness says what is going on; nothing is lost.
 */
class BusyRedisTest extends FaultTestSupport {

    private static final String QUEUE = "refusing";
    private static final String URI = "redis-delay:" + QUEUE;

    @Test
    void whileAnotherClientsScriptKeepsRedisBusy() throws Exception {
        RedisServerProcess server = redisProcess();
        server.command("CONFIG", "SET", "lua-time-limit", "100");
        DeliveryLog deliveries = DeliveryLog.inMemory();
        CamelContext node = node(RedisServerExtension.redisUrl(), deliveries);
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
            assertResumed(node, producer, deliveries, consumerLog);
        }
    }

    private CamelContext node(String address, DeliveryLog deliveries) throws Exception {
        CamelContext node = new DefaultCamelContext();
        node.getShutdownStrategy().setTimeout(10);
        RedisDelayComponent component = new RedisDelayComponent();
        component.getConfiguration().setAddress(address);
        component.getConfiguration().setKeyPrefix(keyPrefix);
        node.addComponent("redis-delay", component);
        node.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(URI + "?visibilityTimeout=2s").process(new RecordingProcessor(deliveries, "node", 0));
            }
        });
        HealthChecks.enableConsumersAndProducers(node);
        node.start();
        return node;
    }

    private static boolean refuses(RedisServerProcess server, String code) {
        try {
            server.command("EXISTS", "anything");
            return false;
        } catch (IllegalStateException refused) {
            return refused.getMessage().contains(code);
        }
    }

    private static void scheduleDelivered(ProducerTemplate producer, DeliveryLog deliveries, String id) {
        producer.sendBodyAndHeader(URI, id, RedisDelayConstants.MESSAGE_ID, id);
        await(id + " delivered").atMost(Duration.ofSeconds(60))
                .until(() -> deliveries.read().finishedIds().contains(id));
    }

    private static Exception failure(ProducerTemplate producer, String id) {
        Exchange done = producer.send(URI, e -> e.getMessage().setHeaders(Map.of(RedisDelayConstants.MESSAGE_ID, id)));
        assertThat(done.getException()).as("schedule of " + id).isNotNull();
        return done.getException();
    }

    private static void assertPlain(Exception refused, String id, String reason) {
        assertThat(refused.getMessage()).contains("message " + id, "queue " + QUEUE, reason)
                .doesNotContain("channel:", "CommandData", "-- camel-redis-delay").hasSizeLessThan(600);
    }

    private static void assertRefusalSaid(CamelContext node, LogLines consumerLog, String reason) {
        await("readiness DOWN saying why").atMost(Duration.ofSeconds(30)).untilAsserted(
                () -> assertThat(HealthChecks.downReasons(node).values()).isNotEmpty()
                        .allSatisfy(text -> assertThat(text).contains(reason).doesNotContain("channel:", "CommandData")));
        // once each; after a restart the outage may have begun with the connection refused, and says that
        await("consumer and transfer task say why").atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            for (String loop : List.of("Consumer of queue " + QUEUE, "Transfer task of queue " + QUEUE)) {
                assertThat(consumerLog.lines()).filteredOn(line -> line.contains(loop)).as(loop).hasSize(1)
                        .allSatisfy(line -> assertThat(line).containsAnyOf(reason, "RedisConnectionException")
                                .doesNotContain("channel:", "CommandData"));
            }
        });
    }

    private static void assertResumed(
            CamelContext node, ProducerTemplate producer, DeliveryLog deliveries,
            LogLines consumerLog) {
        scheduleDelivered(producer, deliveries, "after");
        await("readiness UP").atMost(Duration.ofSeconds(30))
                .until(() -> HealthChecks.readiness(node).values().stream().allMatch(HealthCheck.State.UP::equals));
        Tally tally = deliveries.read().tally(List.of("before", "after"));
        assertThat(tally.lost()).isEmpty();
        assertThat(tally.duplicates()).isZero();
        assertThat(deliveries.read().finishedIds()).as("the refused schedule stored nothing").doesNotContain("during");
    }
}
