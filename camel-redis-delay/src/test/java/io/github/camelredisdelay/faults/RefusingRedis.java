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

import io.github.camelredisdelay.RedisDelayComponent;
import io.github.camelredisdelay.RedisDelayConstants;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.test.HealthChecks;
import io.github.camelredisdelay.test.LogLines;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.health.HealthCheck;
import org.apache.camel.impl.DefaultCamelContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A node with a consumer of queue {@value #QUEUE} while Redis answers everyone with an error of the kind that means
 * "not yet" (BUSY, LOADING), and what the tests of those expect of it: a schedule fails saying so plainly, naming the
 * message and the queue; the consumer, the transfer task and readiness say why; everything resumes and nothing is lost.
 */
final class RefusingRedis {

    static final String QUEUE = "refusing";
    static final String URI = "redis-delay:" + QUEUE;

    private RefusingRedis() {
    }

    /**
     * A started node on {@code address} under {@code keyPrefix}, its consumer noting deliveries in {@code deliveries}.
     */
    static CamelContext node(String address, String keyPrefix, DeliveryLog deliveries) throws Exception {
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

    /** Whether {@code server} answers a command of a fresh connection with an error reply of {@code code}. */
    static boolean refuses(RedisServerProcess server, String code) {
        try {
            server.command("EXISTS", "anything");
            return false;
        } catch (IllegalStateException refused) {
            return refused.getMessage().contains(code);
        }
    }

    /** Schedules message {@code id} without delay and waits for its delivery. */
    static void scheduleDelivered(ProducerTemplate producer, DeliveryLog deliveries, String id) {
        producer.sendBodyAndHeader(URI, id, RedisDelayConstants.MESSAGE_ID, id);
        await(id + " delivered").atMost(Duration.ofSeconds(60))
                .until(() -> deliveries.read().finishedIds().contains(id));
    }

    /** The exception of a schedule of message {@code id}, which must fail. */
    static Exception failure(ProducerTemplate producer, String id) {
        Exchange done = producer.send(URI, e -> e.getMessage().setHeaders(Map.of(RedisDelayConstants.MESSAGE_ID, id)));
        assertThat(done.getException()).as("schedule of " + id).isNotNull();
        return done.getException();
    }

    /** {@code refused} names the message, the queue and the {@code reason}, without Redisson's dump. */
    static void assertPlain(Exception refused, String id, String reason) {
        assertThat(refused.getMessage()).contains("message " + id, "queue " + QUEUE, reason)
                .doesNotContain("channel:", "CommandData", "-- camel-redis-delay").hasSizeLessThan(600);
    }

    /** Readiness, the consumer and the transfer task say {@code reason}, each loop once. */
    static void assertRefusalSaid(CamelContext node, LogLines consumerLog, String reason) {
        await("readiness DOWN saying why").atMost(Duration.ofSeconds(30)).untilAsserted(
                () -> assertThat(HealthChecks.downReasons(node).values()).isNotEmpty()
                        .allSatisfy(text -> assertThat(text).contains(reason).doesNotContain("channel:", "CommandData")));
        // once each (a warning; the loop's INFO that it reaches Redis again may follow before this looks, as a load
        // may end meanwhile); after a restart the outage may have begun with the connection refused, and says that
        await("consumer and transfer task say why").atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            for (String loop : List.of("Consumer of queue " + QUEUE, "Transfer task of queue " + QUEUE)) {
                assertThat(consumerLog.lines()).filteredOn(line -> line.startsWith("WARN") && line.contains(loop))
                        .as(loop).hasSize(1)
                        .allSatisfy(line -> assertThat(line).containsAnyOf(reason, "RedisConnectionException")
                                .doesNotContain("channel:", "CommandData"));
            }
        });
    }

    /** A schedule after the refusals is delivered, readiness is UP, nothing was lost or stored twice. */
    static void assertResumed(CamelContext node, ProducerTemplate producer, DeliveryLog deliveries) {
        scheduleDelivered(producer, deliveries, "after");
        await("readiness UP").atMost(Duration.ofSeconds(30))
                .until(() -> HealthChecks.readiness(node).values().stream().allMatch(HealthCheck.State.UP::equals));
        Tally tally = deliveries.read().tally(List.of("before", "after"));
        assertThat(tally.lost()).isEmpty();
        assertThat(tally.duplicates()).isZero();
        assertThat(deliveries.read().finishedIds()).as("the refused schedule stored nothing").doesNotContain("during");
    }
}
