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
import java.util.concurrent.ThreadLocalRandom;

import io.github.camelredisdelay.RedisDelayConstants;
import org.apache.camel.ProducerTemplate;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two consumer JVMs compete for the same queue: each message goes to exactly one of them.
 */
class CompetingConsumerJvmsTest extends FaultTestSupport {

    private static final String QUEUE = "competing";
    private static final int MESSAGES = 1_000;
    private static final String CONSUMER_OPTIONS = "visibilityTimeout=2s&concurrentConsumers=2";

    @Test
    void twoConsumerJvmsDeliverEachOfAThousandMessagesExactlyOnce() throws Exception {
        long started = System.nanoTime();
        ConsumerJvm first = launchConsumerJvm(QUEUE, CONSUMER_OPTIONS, 5);
        ConsumerJvm second = launchConsumerJvm(QUEUE, CONSUMER_OPTIONS, 5);
        first.awaitReady(redis(), JVM_START_TIMEOUT);
        second.awaitReady(redis(), JVM_START_TIMEOUT);
        ProducerTemplate producer = startContext().createProducerTemplate();

        List<String> sent = new ArrayList<>();
        for (int i = 0; i < MESSAGES; i++) {
            String id = "m-" + i;
            producer.sendBodyAndHeaders("redis-delay:" + QUEUE, "body " + i, Map.of(RedisDelayConstants.MESSAGE_ID, id,
                    RedisDelayConstants.DELAY, ThreadLocalRandom.current().nextLong(1_000)));
            sent.add(id);
        }

        DeliveryLog deliveryLog = redisDeliveryLog();
        await("every message delivered").atMost(Duration.ofSeconds(60))
                .until(() -> deliveryLog.read().finishedIds().containsAll(sent));
        awaitQueueDrained(QUEUE);
        stopConsumerJvms();

        Deliveries deliveries = deliveryLog.read();
        Map<String, Long> perConsumer = deliveries.finishedByConsumer();
        Tally tally = deliveries.tally(sent).report("2 consumer JVMs x 1000 messages",
                Duration.ofNanos(System.nanoTime() - started), "perConsumer=" + perConsumer);
        assertThat(tally.lost()).isEmpty();
        assertThat(tally.duplicates()).as("duplicates, e.g. %s", deliveries.duplicatedIds()).isZero();
        assertThat(perConsumer).as("deliveries per consumer JVM")
                .containsOnlyKeys(first.consumerName(), second.consumerName());
    }
}
