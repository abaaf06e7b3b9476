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

import io.github.camelredisdelay.RedisDelayConstants;
import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A healthy but slow consumer works through a batch it fetched ({@code maxMessagesPerPoll}) for longer than the
 * visibility timeout while a second consumer runs. Nothing fails, so nothing should be delivered twice: the messages
 * waiting in the first consumer's batch are leased to it and must not be handed to the second one.
 */
class FetchedBatchLeaseTest extends FaultTestSupport {

    private static final String QUEUE = "batchlease";
    private static final int MESSAGES = 8;
    private static final long SLOW_WORK_MILLIS = 400;

    private final DeliveryLog deliveryLog = DeliveryLog.inMemory();

    @Test
    void messagesWaitingInAFetchedBatchAreNotHandedToAnotherConsumer() throws Exception {
        long started = System.nanoTime();
        ProducerTemplate producer = startContext().createProducerTemplate();
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < MESSAGES; i++) {
            producer.sendBodyAndHeader("redis-delay:" + QUEUE, "body " + i, RedisDelayConstants.MESSAGE_ID, "m-" + i);
            sent.add("m-" + i);
        }
        // the slow node fetches all of them in one batch: 8 x 400 ms of work, a visibility timeout of 1 s
        CamelContext slow = startContext(consumer("slow", SLOW_WORK_MILLIS));
        await("slow node started its batch").atMost(Duration.ofSeconds(20))
                .until(() -> !deliveryLog.read().interruptedAt("slow").isEmpty());
        CamelContext fast = startContext(consumer("fast", 0));

        await("every message delivered").atMost(Duration.ofSeconds(30))
                .until(() -> deliveryLog.read().finishedIds().containsAll(sent));
        awaitQueueDrained(QUEUE);
        // a graceful stop works through what each node has fetched, so a second delivery waiting there shows up
        slow.stop();
        fast.stop();

        Deliveries deliveries = deliveryLog.read();
        Tally tally = deliveries.tally(sent).report("slow consumer's fetched batch vs. 2nd consumer",
                Duration.ofNanos(System.nanoTime() - started), "perConsumer=" + deliveries.finishedByConsumer()
                                                               + " duplicated=" + deliveries.duplicatedIds());
        assertThat(tally.lost()).isEmpty();
        assertThat(tally.duplicates()).as("deliveries of messages that were already being delivered, without any failure: %s",
                deliveries.duplicatedIds()).isZero();
    }

    private RouteBuilder consumer(String name, long workMillis) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:" + QUEUE + "?visibilityTimeout=1s&maxMessagesPerPoll=10")
                        .process(new RecordingProcessor(deliveryLog, name, workMillis));
            }
        };
    }
}
