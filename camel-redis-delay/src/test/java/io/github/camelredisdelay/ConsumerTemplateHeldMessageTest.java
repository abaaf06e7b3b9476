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
import java.util.List;

import io.github.camelredisdelay.internal.QueueKeys;
import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.ConsumerTemplate;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.junit.jupiter.api.Test;
import org.redisson.api.stream.StreamMessageId;
import org.redisson.api.stream.StreamPendingRangeArgs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A message a {@code ConsumerTemplate} caller holds without calling {@code doneUoW}: its lease expires after
 * {@code visibilityTimeout}, and the next receive gets it again, counted.
 */
@CamelSide
class ConsumerTemplateHeldMessageTest extends RedisDelayTestSupport {

    private static final String URI = "redis-delay:orders?visibilityTimeout=500&maxDeliveries=1&retrySchedule=1h";

    @Test
    void aHeldMessageIsReceivedAgainCountedOnceItsLeaseExpired() throws Exception {
        CamelContext node = startContext();
        ProducerTemplate producer = node.createProducerTemplate();
        ConsumerTemplate consumer = node.createConsumerTemplate();
        String uri = "redis-delay:orders?visibilityTimeout=500";
        producer.sendBody(uri, "order-1");

        Exchange first = consumer.receive(uri, 5000);
        Exchange second = consumer.receive(uri, 5000);

        assertThat(first.getMessage().getHeader(RedisDelayConstants.DELIVERY_COUNT)).isEqualTo(1);
        assertThat(second.getMessage().getBody()).isEqualTo("order-1");
        assertThat(second.getMessage().getHeader(RedisDelayConstants.DELIVERY_COUNT)).isEqualTo(2);
        consumer.doneUoW(second);
        assertThat(redis().getMap(key("orders", "msg")).size()).isZero();
    }

    /**
     * A receiveNoWait (and so a {@code pollEnrich} with timeout 0) whose read takes over an expired lease of an
     * exhausted message, which goes to the dead-letter queue, still gets a message that is ready.
     */
    @Test
    void receiveNoWaitGetsAReadyMessageBehindAnExhaustedOne() throws Exception {
        CamelContext node = startContext();
        ProducerTemplate producer = node.createProducerTemplate();
        ConsumerTemplate consumer = node.createConsumerTemplate();
        producer.sendBody(URI, "held");
        assertThat(consumer.receive(URI, 5000).getMessage().getBody()).isEqualTo("held");
        awaitLeaseExpired();
        producer.sendBody(URI, "ready");

        Exchange taken = consumer.receiveNoWait(URI);

        assertThat(taken).as("a ready message is there").isNotNull();
        assertThat(taken.getMessage().getBody()).isEqualTo("ready");
    }

    private void awaitLeaseExpired() {
        await().atMost(Duration.ofSeconds(5)).until(() -> {
            List<?> pending = redis().getStream(key("orders", "ready")).listPending(
                    StreamPendingRangeArgs.groupName(QueueKeys.GROUP).startId(StreamMessageId.MIN)
                            .endId(StreamMessageId.MAX).count(10).idleTime(Duration.ofMillis(700)));
            return pending.size() == 1;
        });
    }
}
