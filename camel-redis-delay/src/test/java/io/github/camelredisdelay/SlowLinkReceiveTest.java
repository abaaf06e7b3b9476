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

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.SlowLinkTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.ConsumerTemplate;
import org.apache.camel.ProducerTemplate;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A {@code ConsumerTemplate} receiving from a sharded queue whose Redis is far away: each read of a shard takes a round
 * trip longer than 250 ms, which a receiver waiting only 250 ms for a shard's answer never sees.
 */
@CamelSide
class SlowLinkReceiveTest extends SlowLinkTestSupport {

    private static final Duration ROUND_TRIP = Duration.ofMillis(300);

    @Test
    void aReceiverOfAShardedQueueGetsItsReadyMessageThroughALinkSlowerThanItsShardWait() throws Exception {
        String uri = "redis-delay:far?shards=2";
        CamelContext context = startContext();
        ConsumerTemplate consumer = context.createConsumerTemplate();
        // the consumer groups and scripts are set up while the link is fast: the slow link costs each read a round trip
        assertThat(consumer.receiveBodyNoWait(uri)).isNull();
        ProducerTemplate producer = context.createProducerTemplate();
        producer.sendBodyAndHeader(uri, "due now", RedisDelayConstants.MESSAGE_ID, "m1");
        await().atMost(Duration.ofSeconds(5)).until(() -> "ready".equals(producer.request(uri + "&operation=peek",
                e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, "m1")).getMessage()
                .getHeader(RedisDelayConstants.STATE)));
        link.roundTrip(ROUND_TRIP);

        Object body = consumer.receiveBody(uri, 5000);

        assertThat(body).isEqualTo("due now");
    }
}
