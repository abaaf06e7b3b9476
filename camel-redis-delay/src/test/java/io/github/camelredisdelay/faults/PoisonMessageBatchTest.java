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
import java.util.Set;

import io.github.camelredisdelay.RedisDelayConstants;
import io.github.camelredisdelay.internal.QueueKeys;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.redisson.api.stream.StreamMessageId;
import org.redisson.client.codec.StringCodec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A message whose exchange kills its node (an out-of-memory error, a native crash), fetched with others in one batch
 * ({@code maxMessagesPerPoll}): the node dies in its first exchange and the rest of the batch never reaches its route.
 * Every message of the batch counted a delivery when it was fetched, so a node that takes the batch over whole would
 * die on the poison message again with the others behind it, until all of them reached {@code maxDeliveries}. Expired
 * leases are therefore taken over one message at a time.
 */
class PoisonMessageBatchTest extends FaultTestSupport {

    private static final String QUEUE = "poison";
    private static final int MESSAGES = 6;
    private static final String CRASH_LOOP_OPTIONS = "visibilityTimeout=2s&maxDeliveries=3";

    /**
     * The situation design notes §5 means the expired-lease rule for: a message whose exchange kills its node, every
     * time, until it goes to the dead-letter queue after {@code maxDeliveries} (3 here) such deliveries. Every node it
     * kills has fetched it in one batch with messages behind it, which never reach its route: they must not go to the
     * dead-letter queue with it.
     */
    @Test
    void messagesBehindAPoisonMessageThatKillsEveryNodeAreNotDeadLetteredWithIt() throws Exception {
        DeliveryLog deliveryLog = redisDeliveryLog();
        ProducerTemplate producer = startContext().createProducerTemplate();
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < MESSAGES; i++) {
            String id = "p-" + i;
            producer.sendBodyAndHeader("redis-delay:" + QUEUE, "body " + i, RedisDelayConstants.MESSAGE_ID, id);
            sent.add(id);
        }
        Set<String> everStarted = new java.util.HashSet<>();
        for (int crash = 1; crash <= 3; crash++) {
            // each node dies in its first exchange, as the poison message, the first of the batch, makes it; it starts
            // once every lease of the one before has expired, so that it finds the poison message's expired too
            if (crash > 1) {
                await("the leases of the node before expired").atMost(Duration.ofSeconds(10))
                        .until(PoisonMessageBatchTest.this::everyLeaseExpired);
            }
            ConsumerJvm victim = startConsumerJvm(QUEUE, CRASH_LOOP_OPTIONS, 60_000);
            await("node " + crash + " started an exchange").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> !deliveryLog.read().interruptedAt(victim.consumerName()).isEmpty());
            victim.kill();
            everStarted.addAll(deliveryLog.read().interruptedAt(victim.consumerName()).keySet());
        }
        assertThat(everStarted).as("messages whose exchange a killed node had started").containsExactly("p-0");

        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:" + QUEUE + "?" + CRASH_LOOP_OPTIONS)
                        .process(new RecordingProcessor(deliveryLog, "survivor", 0));
            }
        });
        awaitQueueDrained(QUEUE);

        Set<String> finished = deliveryLog.read().finishedIds();
        List<String> neverRouted = sent.stream().filter(id -> !everStarted.contains(id)).toList();
        assertThat(finished)
                .as("messages no killed node routed, behind poison message %s (dead letters: %s)", everStarted,
                        redis().getMap(key(QUEUE + ".dead", "msg")).keySet())
                .containsAll(neverRouted);
    }

    /** Whether every message delivered and not acknowledged has been idle for the visibility timeout (2 s). */
    private boolean everyLeaseExpired() {
        return redis().<String, String>getStream(key(QUEUE, "ready"), StringCodec.INSTANCE)
                .listPending(QueueKeys.GROUP, StreamMessageId.MIN, StreamMessageId.MAX, MESSAGES).stream()
                .allMatch(lease -> lease.getIdleTime() >= 2_000);
    }
}
