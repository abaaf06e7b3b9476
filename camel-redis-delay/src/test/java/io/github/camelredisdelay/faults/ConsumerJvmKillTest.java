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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.github.camelredisdelay.RedisDelayConstants;
import io.github.camelredisdelay.faults.DeliveryLog.Entry;
import io.github.camelredisdelay.faults.DeliveryLog.Event;
import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A consumer JVM killed with SIGKILL in the middle of an exchange: its leases expire and another consumer delivers what
 * it had, counting the interrupted delivery.
 */
class ConsumerJvmKillTest extends FaultTestSupport {

    private static final String QUEUE = "kill9";
    private static final int MESSAGES = 6;
    private static final long WORK_MILLIS = 500;

    @Test
    void messageIsRedeliveredAfterConsumerJvmIsKilled() throws Exception {
        long started = System.nanoTime();
        DeliveryLog deliveryLog = redisDeliveryLog();
        ProducerTemplate producer = startContext().createProducerTemplate();
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < MESSAGES; i++) {
            String id = "m-" + i;
            producer.sendBodyAndHeader("redis-delay:" + QUEUE, "body " + i, RedisDelayConstants.MESSAGE_ID, id);
            sent.add(id);
        }
        ConsumerJvm victim = startConsumerJvm(QUEUE, "visibilityTimeout=2s", WORK_MILLIS);

        // kill it right after it started a delivery, so it is certainly in the middle of that exchange
        await("consumer JVM has finished two messages and just started another").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    Deliveries deliveries = deliveryLog.read();
                    long now = System.currentTimeMillis();
                    return deliveries.finishedByConsumer().getOrDefault(victim.consumerName(), 0L) >= 2
                            && deliveries.interruptedAt(victim.consumerName()).values().stream()
                                    .anyMatch(open -> now - open.atMillis() < WORK_MILLIS / 2);
                });
        victim.kill();
        Map<String, Entry> interrupted = deliveryLog.read().interruptedAt(victim.consumerName());
        assertThat(interrupted).as("deliveries the killed JVM was in the middle of").isNotEmpty();

        CamelContext survivor = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:" + QUEUE + "?visibilityTimeout=2s")
                        .process(new RecordingProcessor(deliveryLog, "node-after-kill", 0));
            }
        });
        await("every message delivered").atMost(Duration.ofSeconds(30))
                .until(() -> deliveryLog.read().finishedIds().containsAll(sent));
        survivor.stop();

        Deliveries deliveries = deliveryLog.read();
        Tally tally = deliveries.tally(sent).report("consumer JVM kill -9 mid-exchange",
                Duration.ofNanos(System.nanoTime() - started), "interrupted=" + interrupted.keySet());
        assertThat(tally.lost()).isEmpty();
        for (String id : interrupted.keySet()) {
            assertThat(deliveries.of(id)).filteredOn(entry -> entry.event() == Event.FINISHED)
                    .as("finished deliveries of interrupted message %s", id)
                    .isNotEmpty()
                    .allSatisfy(entry -> assertThat(entry.deliveryCount()).isGreaterThanOrEqualTo(2));
        }
    }
}
