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

import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A peek of queue A's id falls back to A's dead-letter queue when A does not hold the id. With a dead-letter queue that
 * queues A and B share, it returned queue B's dead letter of that id (state dead,
 * {@code CamelRedisDelayOriginalQueue=B}) as A's message, and JMX {@code peekMessage} showed it too, although A never
 * held that message and A's redrive does not take it back.
 */
class PeekSharedDeadLetterTest extends RedisDelayTestSupport {

    private static final String OPTIONS = "?maxDeliveries=1&deadLetterQueue=shared.dead";

    @Test
    void aPeekOfOneQueueDoesNotReportAnotherQueuesDeadLetterOfTheSameId() throws Exception {
        CamelContext context = startFailingConsumers("billing down", "redis-delay:invoices" + OPTIONS);
        ProducerTemplate producer = context.createProducerTemplate();
        producer.sendBodyAndHeader("redis-delay:invoices", "invoice of order 7", RedisDelayConstants.MESSAGE_ID, "order-7");
        await().atMost(Duration.ofSeconds(10)).until(() -> "dead".equals(producer.request(
                "redis-delay:invoices" + OPTIONS + "&operation=peek",
                e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, "order-7")).getMessage()
                .getHeader(RedisDelayConstants.STATE)));

        // queue shipments shares the dead-letter queue, and never held order-7
        var peeked = producer.request("redis-delay:shipments" + OPTIONS + "&operation=peek",
                e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, "order-7")).getMessage();
        assertThat(peeked.getHeader(RedisDelayConstants.ORIGINAL_QUEUE)).as("original queue of the peeked message")
                .isNull();
        assertThat(peeked.getBody()).as("shipments' order-7").isNull();
        assertThat(peeked.getHeader(RedisDelayConstants.STATE)).isNull();

        RedisDelayEndpoint shipments = context.getEndpoint("redis-delay:shipments" + OPTIONS, RedisDelayEndpoint.class);
        assertThat(shipments.peekMessage("order-7")).as("JMX peekMessage of shipments' order-7").isEmpty();
        // the redrive of shipments agrees: nothing of its own to take back
        assertThat(producer.requestBodyAndHeader("redis-delay:shipments" + OPTIONS + "&operation=redrive", null,
                RedisDelayConstants.MESSAGE_ID, "order-7")).isEqualTo(0L);
    }
}
