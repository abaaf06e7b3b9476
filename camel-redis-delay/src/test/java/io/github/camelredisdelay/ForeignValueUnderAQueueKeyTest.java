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
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.internal.TransferTask;
import io.github.camelredisdelay.test.DueSet;
import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A value of another type sits under the name of one of a queue's keys for a while (written by another application or
 * by hand), then is removed: Redis refuses the queue's writes to that key meanwhile (WRONGTYPE), and nothing the queue
 * held may be lost for it.
 */
class ForeignValueUnderAQueueKeyTest extends RedisDelayTestSupport {

    /** Most messages in a bucket of the due set (due-set.lua). */
    private static final int BUCKET_SIZE = 64;

    @Test
    void messagesThatFellDueWhileTheReadyStreamsNameHeldAStringAreDeliveredOnceItIsRemoved() throws Exception {
        List<String> delivered = new CopyOnWriteArrayList<>();
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders").process(e -> delivered.add(e.getMessage().getBody(String.class)));
            }
        });
        await("the consumer group").atMost(Duration.ofSeconds(10))
                .until(() -> redis().getStream(key("orders", "ready")).isExists());

        try (LogLines transfer = LogLines.of(TransferTask.class)) {
            startContext().createProducerTemplate().sendBodyAndHeader("redis-delay:orders", "order-1",
                    RedisDelayConstants.DELAY, 500);
            redis().getKeys().delete(key("orders", "ready"));
            redis().getBucket(key("orders", "ready")).set("not a stream");
            await("the transfer of order-1 refused").atMost(Duration.ofSeconds(10))
                    .until(() -> transfer.lines().stream().anyMatch(line -> line.contains("WRONGTYPE")));
        }
        redis().getKeys().delete(key("orders", "ready"));

        await("order-1 delivered").atMost(Duration.ofSeconds(15)).until(() -> delivered.contains("order-1"));
    }

    /**
     * The due set keeps its messages in buckets of 64 (due-set.lua), each a key of its own: a string under the name of
     * a later bucket must not cost the messages of the buckets before it.
     */
    @Test
    void messagesDueBeforeABucketOfTheDueSetThatHoldsAStringAreDelivered() throws Exception {
        CamelContext scheduler = startContext();
        ProducerTemplate template = scheduler.createProducerTemplate();
        // due once the 65 are sent, the scheduler stopped and the later bucket replaced (well under a second): a
        // scheduler still running at the due time would move them, and the due set would not hold the two buckets
        long dueAt = System.currentTimeMillis() + 4_000;
        for (int i = 0; i < BUCKET_SIZE; i++) {
            template.sendBodyAndHeader("redis-delay:orders", "order-" + i, RedisDelayConstants.DUE_AT, dueAt);
        }
        template.sendBodyAndHeader("redis-delay:orders", "later", RedisDelayConstants.DUE_AT, dueAt + 1);
        scheduler.stop();
        DueSet dueSet = dueSet("orders");
        List<DueSet.Bucket> buckets = dueSet.buckets();
        assertThat(buckets).as("a full bucket and the later one's").hasSize(2);
        redis().getBucket(dueSet.keyOf(buckets.get(1))).set("not a sorted set");
        await("both due").atMost(Duration.ofSeconds(10)).until(() -> System.currentTimeMillis() > dueAt + 200);

        List<String> delivered = new CopyOnWriteArrayList<>();
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders").process(e -> delivered.add(e.getMessage().getBody(String.class)));
            }
        });

        // found: the transfer takes the first bucket's messages out of the due set, then Redis refuses its read of the
        // second bucket (WRONGTYPE, naming no key) and the script stops before it adds them to the ready stream: the 64
        // records stay in the message hash, and nothing delivers them
        await("the 64 orders of the first bucket delivered").atMost(Duration.ofSeconds(15))
                .untilAsserted(() -> assertThat(delivered).hasSize(BUCKET_SIZE));
    }

    /**
     * A schedule whose due time falls in a bucket of the due set that holds a string is refused: it must store nothing,
     * so that the same schedule, tried again once the string is removed, stores the message and it is delivered.
     */
    @Test
    void aScheduleRefusedForABucketThatHoldsAStringIsDeliveredWhenTriedAgainOnceTheStringIsRemoved() throws Exception {
        List<String> delivered = new CopyOnWriteArrayList<>();
        ProducerTemplate template = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders").process(e -> delivered.add(e.getMessage().getBody(String.class)));
            }
        }).createProducerTemplate();
        // due once the bucket is replaced and both schedules of order-1 are sent (a few calls): the transfer would
        // otherwise move the placeholder first, and order-1 would be scheduled past its due time
        long dueAt = System.currentTimeMillis() + 3_000;
        template.sendBodyAndHeader("redis-delay:orders", "placeholder", RedisDelayConstants.DUE_AT, dueAt);
        DueSet dueSet = dueSet("orders");
        String bucket = dueSet.keyOf(dueSet.buckets().get(0));
        redis().getBucket(bucket).set("not a sorted set");
        Map<String, Object> order = Map.of(RedisDelayConstants.MESSAGE_ID, "order-1", RedisDelayConstants.DUE_AT, dueAt + 1);

        assertThatThrownBy(() -> template.sendBodyAndHeaders("redis-delay:orders", "order-1", order))
                .as("the schedule into the bucket that holds a string").rootCause().hasMessageContaining("WRONGTYPE");
        redis().getKeys().delete(bucket);
        template.sendBodyAndHeaders("redis-delay:orders", "order-1", order);

        // found: the refused schedule had stored its record before Redis refused the bucket; the second try found it
        // and kept it (reported as stored), though it was in neither the due set nor the ready stream
        await("order-1 delivered").atMost(Duration.ofSeconds(20)).until(() -> delivered.contains("order-1"));
    }

    /**
     * A peek of a message and the queue's statistics, where a key of the queue holds a value of another type, fail
     * saying so plainly and naming the queue, as a cancel does, not with Redisson's text (the connection, the command
     * with its arguments and the script's whole source).
     */
    @Test
    void aPeekAndTheStatisticsOfAQueueWhoseMessagesKeyHoldsAStringSaySoPlainly() throws Exception {
        ProducerTemplate producer = startContext().createProducerTemplate();
        producer.sendBodyAndHeader("redis-delay:orders?delay=60000", "order-1", RedisDelayConstants.MESSAGE_ID, "order-1");
        redis().getKeys().delete(key("orders", "msg"));
        redis().getBucket(key("orders", "msg")).set("not a hash");

        for (String operation : List.of("peek", "stats", "cancel")) {
            Exchange done = producer.send("redis-delay:orders?operation=" + operation,
                    e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, "order-1"));
            assertThat(done.getException()).as(operation).isNotNull();
            assertThat(done.getException().getMessage()).as(operation)
                    .contains("queue orders", "a key of the queue holds a value of another type")
                    .doesNotContain("channel:", "CommandData", "command:", "-- camel-redis-delay");
        }
    }
}
