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
package io.github.camelredisdelay.cluster;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import io.github.camelredisdelay.RedisDelayConstants;
import io.github.camelredisdelay.internal.ShardTags;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;
import static org.awaitility.Awaitility.await;

/**
 * The component's everyday operations on a Redis Cluster, on three queues whose keys live on three different masters:
 * every script of a queue runs on its own master, and a dead letter moves to a queue on another one. One node consumes
 * all queues for every test (stopping blocking consumers costs up to a second each); each test tells its messages apart
 * by their ids. The transfer task's safety net is a minute, so deliveries on time prove that the wake-up announcements
 * of each queue's master reach it.
 */
class ClusterDeliveryTest extends ClusterTestSupport {

    /** Hash tags in the slot ranges of the first, second and third master of a freshly created cluster. */
    private static final List<String> QUEUES = List.of("orders", "payments", "reminders");
    private static final String DEAD_LETTER_QUEUE = "orders.dead";
    /** A queue spread over three hash tags, hence three masters. */
    private static final String SHARDED = "busy";
    private static final String CONSUMER_OPTIONS = "?retrySchedule=100ms&maxDeliveries=2&transferInterval=60s";
    /** Messages with ids starting so fail at their first delivery; poison ones fail at every delivery. */
    private static final String FAILS_ONCE = "fails-once-";
    private static final String POISON = "poison-";
    private static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(15);
    private static final long LATE_TOLERANCE_MILLIS = 1_000;

    /** What the consumer routes received: queue, message id, delivery count, stored due time, local arrival. */
    private record Received(String queue, String id, int deliveryCount, long scheduledFor, long at) {

        static Received of(Message message) {
            return new Received(
                    message.getHeader(RedisDelayConstants.QUEUE, String.class),
                    message.getHeader(RedisDelayConstants.MESSAGE_ID, String.class),
                    message.getHeader(RedisDelayConstants.DELIVERY_COUNT, Integer.class),
                    message.getHeader(RedisDelayConstants.SCHEDULED_FOR, Long.class), System.currentTimeMillis());
        }
    }

    private static final Queue<Received> RECEIVED = new ConcurrentLinkedQueue<>();
    private static ProducerTemplate template;

    @BeforeAll
    static void startConsumerNode() throws Exception {
        template = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                for (String queue : QUEUES) {
                    from("redis-delay:" + queue + CONSUMER_OPTIONS).process(exchange -> {
                        Received delivery = Received.of(exchange.getMessage());
                        RECEIVED.add(delivery);
                        if (delivery.id().startsWith(POISON)
                                || delivery.id().startsWith(FAILS_ONCE) && delivery.deliveryCount() == 1) {
                            throw new IllegalStateException(
                                    "delivery " + delivery.deliveryCount() + " of "
                                                            + delivery.id() + " fails");
                        }
                    });
                }
                from("redis-delay:" + DEAD_LETTER_QUEUE + CONSUMER_OPTIONS)
                        .process(exchange -> RECEIVED.add(Received.of(exchange.getMessage())));
                from("redis-delay:" + SHARDED + CONSUMER_OPTIONS + "&shards=3")
                        .process(exchange -> RECEIVED.add(Received.of(exchange.getMessage())));
            }
        }).createProducerTemplate();
    }

    @Test
    void queuesOfTheseTestsAreServedByThreeDifferentMasters() {
        assertThat(QUEUES.stream().map(ClusterTestSupport::masterOf).distinct()).hasSize(3);
        for (String queue : QUEUES) {
            assertThat(List.of("due", "msg", "ready", "fail").stream().map(s -> cluster.slotOf(key(queue, s))).distinct())
                    .as("slots of the keys of %s", queue).containsExactly(cluster.slotOf("{" + queue + "}"));
        }
    }

    @Test
    void messagesScheduledOnQueuesOfDifferentMastersAreEachDeliveredOnce() {
        List<String> sent = QUEUES.stream().flatMap(queue -> List.of(0, 1, 2, 3, 4).stream()
                .map(i -> "each-once-" + queue + "-" + i)).toList();
        sent.forEach(id -> schedule(queueIn(id), id, 200));

        await().atMost(DELIVERY_TIMEOUT).until(() -> receivedOf("each-once-").size() >= sent.size());
        assertThat(receivedOf("each-once-")).extracting(Received::id).containsExactlyInAnyOrderElementsOf(sent);
        assertThat(receivedOf("each-once-")).allMatch(r -> r.queue().equals(queueIn(r.id())) && r.deliveryCount() == 1);
    }

    @Test
    void aShardedQueueLivesOnThreeMastersAndCancelsAndDeliversByMessageId() {
        String uri = "redis-delay:" + SHARDED + "?shards=3";
        assertThat(ShardTags.of(SHARDED, 3).stream().map(ClusterTestSupport::masterOf).distinct()).hasSize(3);
        List<String> ids = List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11).stream().map(i -> "sharded-" + i).toList();
        ids.forEach(id -> template.sendBodyAndHeaders(uri, id,
                Map.of(RedisDelayConstants.MESSAGE_ID, id, RedisDelayConstants.DELAY, 500)));
        List<String> cancelled = ids.subList(0, 3);

        cancelled.forEach(id -> assertThat(template.requestBodyAndHeader(uri + "&operation=cancel", null,
                RedisDelayConstants.MESSAGE_ID, id, Boolean.class)).as("cancel of %s", id).isTrue());

        List<String> kept = ids.subList(3, ids.size());
        await().atMost(DELIVERY_TIMEOUT).until(() -> receivedOf("sharded-").size() >= kept.size());
        assertThat(receivedOf("sharded-")).extracting(Received::id).containsExactlyInAnyOrderElementsOf(kept);
    }

    @Test
    void failedFirstDeliveryIsRetriedOnItsQueuesRetrySchedule() {
        QUEUES.forEach(queue -> schedule(queue, FAILS_ONCE + queue, 0));

        await().atMost(DELIVERY_TIMEOUT).until(() -> receivedOf(FAILS_ONCE).size() >= 2 * QUEUES.size());
        for (String queue : QUEUES) {
            assertThat(receivedOf(FAILS_ONCE + queue)).extracting(Received::deliveryCount)
                    .as("delivery counts on %s", queue).containsExactly(1, 2);
        }
    }

    @Test
    void cancelledMessagesAreNeverDeliveredWhileTheirNeighboursAre() {
        for (String queue : QUEUES) {
            schedule(queue, "kept-" + queue, 500);
            schedule(queue, "cancelled-" + queue, 500);
            assertThat(template.requestBodyAndHeader("redis-delay:" + queue + "?operation=cancel", null,
                    RedisDelayConstants.MESSAGE_ID, "cancelled-" + queue, Boolean.class)).as("cancel on %s", queue)
                    .isTrue();
        }

        await().atMost(DELIVERY_TIMEOUT).until(() -> receivedOf("kept-").size() >= QUEUES.size());
        assertThat(receivedOf("cancelled-")).isEmpty();
        for (String queue : QUEUES) {
            assertThat(masterOf(queue).command("HEXISTS", key(queue, "msg"), "cancelled-" + queue))
                    .as("cancelled message stored on %s", queue).isEqualTo("0");
        }
    }

    @Test
    void exhaustedMessageReachesItsDeadLetterQueueOnAnotherMaster() {
        String queue = QUEUES.get(0);
        assertThat(masterOf(DEAD_LETTER_QUEUE)).isNotSameAs(masterOf(queue));

        schedule(queue, POISON + queue, 0);

        await().atMost(DELIVERY_TIMEOUT).until(() -> receivedOf(POISON).size() >= 3);
        assertThat(receivedOf(POISON)).extracting(Received::queue, Received::deliveryCount)
                .containsExactly(tuple(queue, 1), tuple(queue, 2), tuple(DEAD_LETTER_QUEUE, 1));
        // the move stores the dead letter first and then acknowledges the delivery on the queue's master: the dead
        // letter may be routed before that
        await().atMost(Duration.ofSeconds(10)).untilAsserted(
                () -> assertThat(masterOf(queue).command("HEXISTS", key(queue, "msg"), POISON + queue)).isEqualTo("0"));
    }

    @Test
    void delayedMessagesAreDeliveredOnTimeThroughTheirMastersWakeChannels() {
        Map<String, Long> dueAt = new HashMap<>();
        QUEUES.forEach(queue -> dueAt.put("on-time-" + queue, schedule(queue, "on-time-" + queue, 1_000)));

        await().atMost(DELIVERY_TIMEOUT).until(() -> receivedOf("on-time-").size() >= QUEUES.size());
        assertThat(receivedOf("on-time-")).allSatisfy(r -> {
            assertThat(r.scheduledFor()).isEqualTo(dueAt.get(r.id()));
            assertThat(r.at() - r.scheduledFor()).as("ms %s arrived after its due time", r.id())
                    .isBetween(0L, LATE_TOLERANCE_MILLIS);
        });
    }

    private static List<Received> receivedOf(String idPrefix) {
        return RECEIVED.stream().filter(r -> r.id().startsWith(idPrefix)).toList();
    }

    /** The queue named in an id such as {@code each-once-payments-3}. */
    private static String queueIn(String id) {
        return QUEUES.stream().filter(queue -> id.contains("-" + queue + "-")).findFirst().orElseThrow();
    }

    /** Schedules a message and returns the due time Redis stored. */
    private static long schedule(String queue, String id, long delayMillis) {
        Exchange exchange = template.send("redis-delay:" + queue, e -> e.getMessage().setHeaders(Map.of(
                RedisDelayConstants.MESSAGE_ID, id, RedisDelayConstants.DELAY, delayMillis)));
        assertThat(exchange.getException()).as("schedule of %s on %s", id, queue).isNull();
        return exchange.getMessage().getHeader(RedisDelayConstants.SCHEDULED_FOR, Long.class);
    }
}
