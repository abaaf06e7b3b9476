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
import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.faults.DeliveryLog.Entry;
import io.github.camelredisdelay.faults.DeliveryLog.Event;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Redis closes the component's connections ({@code CLIENT KILL TYPE normal|pubsub}), as a proxy, a failover or an
 * operator would: the consumer, the producer and the transfer task carry on by themselves. The transfer task's
 * safety-net interval is set to a minute here, so a delayed message is only on time if the task still gets the wake-up
 * announcements, i.e. it resubscribed.
 */
class ClientKillTest extends FaultTestSupport {

    private static final String QUEUE = "clientkill";
    private static final String OPTIONS = "visibilityTimeout=2s&transferInterval=60s";
    private static final int MESSAGES_PER_ROUND = 20;
    private static final long DELAY_MILLIS = 1_000;
    private static final long LATE_TOLERANCE_MILLIS = 1_000;

    private final DeliveryLog deliveryLog = DeliveryLog.inMemory();
    private CamelContext node;
    private final List<String> sent = new ArrayList<>();

    @Test
    void deliveriesResumeAfterNormalConnectionsAreKilled() throws Exception {
        deliveriesResumeAfterKillingConnectionsOfType("normal");
    }

    @Test
    void delayedMessageIsDeliveredOnTimeAfterPubSubConnectionsAreKilled() throws Exception {
        deliveriesResumeAfterKillingConnectionsOfType("pubsub");
    }

    private void deliveriesResumeAfterKillingConnectionsOfType(String type) throws Exception {
        RedisServerProcess redisServer = redisProcess();
        long started = System.nanoTime();
        node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:" + QUEUE + "?" + OPTIONS).process(new RecordingProcessor(deliveryLog, "node", 10));
            }
        });
        sendRound("before", 300);
        await("deliveries before the kill").atMost(Duration.ofSeconds(20))
                .until(() -> deliveryLog.read().finishedIds().containsAll(sent));

        String killed = redisServer.command("CLIENT", "KILL", "TYPE", type);
        assertThat(Long.parseLong(killed)).as("connections of type %s killed", type).isPositive();

        sendRound("after", 300);
        long scheduledFor = send("on-time", DELAY_MILLIS);
        await("deliveries after the kill").atMost(Duration.ofSeconds(30))
                .until(() -> deliveryLog.read().finishedIds().containsAll(sent));
        node.stop();

        Deliveries deliveries = deliveryLog.read();
        long late = deliveries.of("on-time").stream().filter(e -> e.event() == Event.STARTED).mapToLong(Entry::atMillis)
                .min().orElseThrow() - scheduledFor;
        Tally tally = deliveries.tally(sent).report("CLIENT KILL TYPE " + type,
                Duration.ofNanos(System.nanoTime() - started),
                "killed=" + killed + " onTimeMessageLate=" + late + "ms");
        assertThat(tally.lost()).isEmpty();
        assertThat(late).as("ms the delayed message scheduled after the kill arrived after its due time")
                .isBetween(0L, LATE_TOLERANCE_MILLIS);
    }

    /** Sends a round of messages with delays spread from 0 to {@code maxDelayMillis}. */
    private void sendRound(String name, long maxDelayMillis) {
        for (int i = 0; i < MESSAGES_PER_ROUND; i++) {
            send(name + "-" + i, maxDelayMillis * i / MESSAGES_PER_ROUND);
        }
    }

    /** Sends one message through the consuming node's own producer; returns the due time Redis stored. */
    private long send(String id, long delayMillis) {
        Exchange exchange = node.createProducerTemplate().send("redis-delay:" + QUEUE + "?" + OPTIONS,
                e -> e.getMessage().setHeaders(
                        Map.of(RedisDelayConstants.MESSAGE_ID, id, RedisDelayConstants.DELAY, delayMillis)));
        assertThat(exchange.getException()).as("send of %s", id).isNull();
        sent.add(id);
        return exchange.getMessage().getHeader(RedisDelayConstants.SCHEDULED_FOR, Long.class);
    }
}
