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
import java.util.ArrayList;
import java.util.List;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.SlowLinkTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.ConsumerTemplate;
import org.apache.camel.ProducerTemplate;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A {@code ConsumerTemplate} receiving with a timeout from a queue of many shards whose Redis is 100 ms away: each read
 * of a shard takes that round trip, under the receiver's wait for a shard's answer, so that asking every shard takes
 * longer than the timeout. The receive returns within its timeout and a round trip all the same, and a message a read
 * brought after its receive moved on is received by a later one.
 */
@CamelSide
class SlowLinkShardedReceiveTimeoutTest extends SlowLinkTestSupport {

    private static final String URI = "redis-delay:farsharded?shards=8";
    private static final Duration ROUND_TRIP = Duration.ofMillis(100);
    private static final long TIMEOUT_MS = 300;
    /** A round trip for the read under way at the timeout, and another for a loaded machine. */
    private static final long MARGIN_MS = 2 * ROUND_TRIP.toMillis();

    @Test
    void aReceiveOfAShardedQueueReturnsWithinItsTimeoutAndLosesNothing() throws Exception {
        CamelContext context = startContext();
        ConsumerTemplate consumer = context.createConsumerTemplate();
        // the consumer groups and scripts are set up while the link is fast: the slow link costs each read a round trip
        assertThat(consumer.receiveBodyNoWait(URI)).isNull();
        link.roundTrip(ROUND_TRIP);

        List<Long> emptyReceivesMs = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            long start = System.nanoTime();
            assertThat(consumer.receiveBody(URI, TIMEOUT_MS)).isNull();
            emptyReceivesMs.add((System.nanoTime() - start) / 1_000_000);
        }
        assertThat(emptyReceivesMs).as("ms each receive(%d) of the empty queue took", TIMEOUT_MS)
                .allMatch(ms -> ms < TIMEOUT_MS + MARGIN_MS);

        ProducerTemplate producer = context.createProducerTemplate();
        producer.sendBodyAndHeader(URI, "due now", RedisDelayConstants.MESSAGE_ID, "m1");
        List<Long> receivesMs = new ArrayList<>();
        List<Object> bodies = new ArrayList<>();
        // each receive asks first the shard after the one the previous asked first: within 2 rounds of the 8 shards
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            long start = System.nanoTime();
            Object body = consumer.receiveBody(URI, TIMEOUT_MS);
            receivesMs.add((System.nanoTime() - start) / 1_000_000);
            if (body != null) {
                bodies.add(body);
            }
            return !bodies.isEmpty() || receivesMs.size() >= 16;
        });
        assertThat(bodies).as("what %d receives got", receivesMs.size()).containsExactly("due now");
        assertThat(receivesMs).as("ms each receive(%d) took", TIMEOUT_MS).allMatch(ms -> ms < TIMEOUT_MS + MARGIN_MS);
    }
}
