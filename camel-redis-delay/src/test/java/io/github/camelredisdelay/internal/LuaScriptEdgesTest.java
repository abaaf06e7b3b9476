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
package io.github.camelredisdelay.internal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import io.github.camelredisdelay.OnDuplicate;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RScoredSortedSet;
import org.redisson.api.RTopic;
import org.redisson.client.codec.ByteArrayCodec;
import org.redisson.client.codec.StringCodec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Edges of the Lua scripts that the other script tests leave open: the wake notices the scripts publish, the largest
 * due time, and the transfer's batch limit across buckets of the due set.
 */
class LuaScriptEdgesTest extends RedisDelayTestSupport {

    private static final long LARGEST_DUE_TIME = (1L << 53) - 1;

    private QueueShard queue;
    private RTopic wake;
    private final Queue<String> notices = new ConcurrentLinkedQueue<>();

    @BeforeEach
    void createQueue() {
        queue = new QueueShard(ConnectedClient.borrowed(redis()), QueueKeys.of(keyPrefix, "q"));
    }

    @AfterEach
    void stopListening() {
        if (wake != null) {
            wake.removeAllListeners();
        }
    }

    private static byte[] envelope(String body) {
        return EnvelopeCodec.encode(new Envelope(body, Map.of()));
    }

    /** Records every notice of the queue's wake channel from now on. */
    private void listenToTheWakeChannel() {
        wake = redis().getTopic(queue.keys().wake(), StringCodec.INSTANCE);
        wake.addListener(String.class, (channel, notice) -> notices.add(notice));
        // the subscription is up once a notice of its own comes back
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            wake.publish("probe");
            return notices.contains("probe");
        });
        notices.clear();
    }

    @Test
    void scheduleOfAMessageDueNowTellsWaitingConsumersItIsReady() {
        listenToTheWakeChannel();

        queue.schedule("now", envelope("x"), DueTime.after(0), OnDuplicate.keep);

        assertThat(redis().getStream(key("q", "ready")).size()).isEqualTo(1);
        await().atMost(Duration.ofSeconds(5)).until(() -> notices.contains(Wire.WAKE_READY));
    }

    @Test
    void scheduleOfAMessageDueAtATimePastTellsWaitingConsumersItIsReady() {
        listenToTheWakeChannel();

        queue.schedule("past", envelope("x"), DueTime.at(1_000), OnDuplicate.keep);

        await().atMost(Duration.ofSeconds(5)).until(() -> notices.contains(Wire.WAKE_READY));
    }

    @Test
    void transferThatMovesMessagesTellsWaitingConsumersTheyAreReady() {
        queue.schedule("soon", envelope("x"), DueTime.after(100), OnDuplicate.keep);
        listenToTheWakeChannel();

        await().atMost(Duration.ofSeconds(5)).until(() -> queue.transfer(10).toCompletableFuture().join().moved() == 1);

        await().atMost(Duration.ofSeconds(5)).until(() -> notices.contains(Wire.WAKE_READY));
    }

    @Test
    void theLargestDueTimeIsScheduledAndTheNextOneOverflows() {
        List<ScheduleResult> results = queue.scheduleAll(List.of(
                new ScheduleRequest("largest", envelope("x"), DueTime.at(LARGEST_DUE_TIME), OnDuplicate.keep),
                new ScheduleRequest("beyond", envelope("x"), DueTime.at(LARGEST_DUE_TIME + 1), OnDuplicate.keep)));
        ScheduleResult largest = results.get(0);
        ScheduleResult beyond = results.get(1);

        assertThat(largest.status()).isEqualTo(ScheduleResult.Status.SCHEDULED);
        assertThat(largest.dueAt()).isEqualTo(LARGEST_DUE_TIME);
        assertThat(dueSet("q").dueOf("largest")).isEqualTo(LARGEST_DUE_TIME);
        assertThat(beyond.status()).isEqualTo(ScheduleResult.Status.DUE_OVERFLOW);
        assertThat(redis().getMap(key("q", "msg")).keySet()).containsExactly("largest");
    }

    @Test
    void transferMovesAtMostABatchWhenTheDueMessagesSpanTwoBuckets() {
        // ten due messages in two buckets of five: "early" bound 0, "late" bound 2000
        for (int i = 0; i < 10; i++) {
            queue.schedule("due-" + i, envelope("x"), DueTime.after(3_600_000), OnDuplicate.keep);
        }
        redis().getKeys().delete(key("q", "due") + ":" + dueSet("q").buckets().get(0).name(), key("q", "due"));
        RScoredSortedSet<String> index = redis().getScoredSortedSet(key("q", "due"), StringCodec.INSTANCE);
        index.add(0, "early");
        index.add(2_000, "late");
        for (int i = 0; i < 10; i++) {
            String bucket = i < 5 ? "early" : "late";
            redis().<String>getScoredSortedSet(key("q", "due") + ":" + bucket, StringCodec.INSTANCE)
                    .add(1_000 * (i < 5 ? 1 : 2) + i, "due-" + i);
        }
        assertThat(dueSet("q").buckets()).hasSize(2);

        TransferResult first = queue.transfer(7).toCompletableFuture().join();

        assertThat(first).isEqualTo(new TransferResult(7, 0));
        assertThat(redis().getStream(key("q", "ready")).size()).isEqualTo(7);
        assertThat(dueSet("q").entries().keySet()).containsExactlyInAnyOrder("due-7", "due-8", "due-9");
        assertThat(queue.transfer(7).toCompletableFuture().join().moved()).isEqualTo(3);
    }

    @Test
    void cancelOfAFailedMessageWaitingForItsRetryRemovesItsFailureNote() {
        queue.schedule("a", envelope("x"), DueTime.after(0), OnDuplicate.keep);
        queue.group().create();
        Delivery failed = queue.group().readNew("c1", 10, null).get(0);
        assertThat(queue.group().retry("c1", failed, 3_600_000, "boom")).isEmpty();
        assertThat(redis().getMap(key("q", "fail")).get("a")).isEqualTo("1:boom");

        assertThat(queue.cancel("a")).isTrue();

        assertThat(redis().getMap(key("q", "fail")).containsKey("a")).as("failure note of the cancelled message").isFalse();
        // made ready by a transfer, which adds a stored failure note to the entry
        queue.schedule("a", envelope("afresh"), DueTime.after(100), OnDuplicate.keep);
        await().atMost(Duration.ofSeconds(5)).until(() -> queue.transfer(10).toCompletableFuture().join().moved() == 1);
        Delivery afresh = queue.group().readNew("c1", 10, null).get(0);
        assertThat(afresh.deliveryCount()).as("deliveries of the message scheduled afresh").isEqualTo(1);
        assertThat(afresh.lastError()).isNull();
    }

    @Test
    void aScheduleOfSeveralMessagesTellsTheTransferTasksTheDelayToTheEarliestOfThem() {
        listenToTheWakeChannel();

        queue.scheduleAll(List.of(new ScheduleRequest("late", envelope("x"), DueTime.after(60_000), OnDuplicate.keep),
                new ScheduleRequest("early", envelope("x"), DueTime.after(30_000), OnDuplicate.keep)));

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(notices)
                .as("delays announced on the wake channel").filteredOn(notice -> notice.matches("\\d+"))
                .anySatisfy(notice -> assertThat(Long.parseLong(notice)).isBetween(29_000L, 30_000L)));
    }

    @Test
    void aFailedDeliveryOfAMessageScheduledInTheMillisecondAPurgeStartedIsRemovedNotScheduledAgain() {
        queue.schedule("a", envelope("x"), DueTime.after(0), OnDuplicate.keep);
        queue.group().create();
        Delivery failed = queue.group().readNew("c1", 10, null).get(0);
        byte[] record = redis().<byte[], byte[]>getMap(key("q", "msg"), ByteArrayCodec.INSTANCE)
                .get("a".getBytes(StandardCharsets.UTF_8));
        // a purge under way that started in the millisecond the message was scheduled, after it (purge-mark.lua)
        redis().<String, String>getMap(key("q", "purge"), StringCodec.INSTANCE).putAll(Map.of("start",
                Long.toString(StoredRecord.scheduledAt(record)), "runs", "1", "until",
                Long.toString(queue.redisTimeMillis() + 60_000)));

        assertThat(queue.group().retry("c1", failed, 60_000, "boom")).contains(Refusal.PURGED);

        assertThat(dueSet("q").dueOf("a")).isNull();
        assertThat(redis().getMap(key("q", "msg")).containsKey("a")).isFalse();
        assertThat(redis().getMap(key("q", "fail")).containsKey("a")).isFalse();
    }

    @Test
    void aLateTakeBackOfAnOwnTakeOverLeavesAnEntryCountedAgainSinceAsItIs() {
        queue.schedule("a", envelope("x"), DueTime.after(0), OnDuplicate.keep);
        queue.group().create();
        queue.group().readNew("c1", 10, null);
        Delivery firstTakeOver = queue.group().reclaim("c1", 0, 10, Reclaimed.FROM_START).deliveries().get(0);
        Delivery secondTakeOver = queue.group().reclaim("c1", 0, 10, Reclaimed.FROM_START).deliveries().get(0);
        assertThat(firstTakeOver.timesDelivered()).isEqualTo(2);
        assertThat(secondTakeOver.timesDelivered()).isEqualTo(3);

        // the take-back of the first take-over arrives after the second one counted the entry again
        queue.group().uncountOwnTakeOvers("c1", List.of(firstTakeOver));

        assertThat(queue.group().reclaim("c2", 0, 10, Reclaimed.FROM_START).deliveries()).singleElement()
                .satisfies(d -> assertThat(d.timesDelivered()).as("deliveries counted").isEqualTo(4));
    }

    @Test
    void aHandBackLeavesAnEntryAnotherConsumerTookOverMeanwhileToThatConsumer() {
        queue.schedule("a", envelope("x"), DueTime.after(0), OnDuplicate.keep);
        queue.group().create();
        Delivery read = queue.group().readNew("stopping", 10, null).get(0);
        assertThat(queue.group().reclaim("taker", 0, 10, Reclaimed.FROM_START).deliveries()).hasSize(1);

        queue.group().handBack("stopping", List.of(read));

        assertThat(queue.group().reclaim("next", 60_000, 10, Reclaimed.FROM_START).deliveries())
                .as("taken over from the consumer that took the entry over, whose lease is fresh").isEmpty();
    }

    @Test
    void aPeekOfAHandedBackMessageSaysItIsReady() {
        queue.schedule("a", envelope("x"), DueTime.after(0), OnDuplicate.keep);
        queue.group().create();
        Delivery read = queue.group().readNew("stopping", 10, null).get(0);

        queue.group().handBack("stopping", List.of(read));

        InspectedMessage peeked = queue.inspection().peek("a");
        assertThat(peeked.state()).isEqualTo("ready");
        assertThat(peeked.timesDelivered()).isZero();
    }

    @Test
    void aRedriveMakesReadyNoScheduledDeadLetterReplacedSinceItWasListed() {
        queue.schedule("a", envelope("listed"), DueTime.after(60_000), OnDuplicate.keep);
        byte[] listed = queue.inspection().peek("a").version();
        queue.schedule("a", envelope("replacement"), DueTime.after(60_000), OnDuplicate.replace);

        assertThat(queue.inspection().makeReadyForRedrive(List.of(new ShardInspection.MessageVersion("a", listed))))
                .isEmpty();

        assertThat(dueSet("q").dueOf("a")).as("the replacement, still scheduled").isNotNull();
        assertThat(redis().getStream(key("q", "ready")).size()).isZero();
    }

    @Test
    void aMessageInFlightIsNotOverdue() {
        queue.schedule("a", envelope("x"), DueTime.after(0), OnDuplicate.keep);
        queue.group().create();
        assertThat(queue.group().readNew("c1", 10, null)).hasSize(1);
        long fetchedAt = queue.redisTimeMillis();
        await().atMost(Duration.ofSeconds(10)).until(() -> queue.redisTimeMillis() - fetchedAt >= 1_500);

        QueueCounts counts = queue.counts();

        assertThat(counts.inFlight()).isEqualTo(1);
        assertThat(counts.oldestOverdueMs()).as("overdue of the message in flight").isZero();
    }

    @Test
    void aRetryThatMakesTheEarliestDueTimeTellsTheTransferTasksItsDelay() {
        queue.schedule("a", envelope("x"), DueTime.after(0), OnDuplicate.keep);
        queue.group().create();
        Delivery failed = queue.group().readNew("c1", 10, null).get(0);
        listenToTheWakeChannel();

        assertThat(queue.group().retry("c1", failed, 30_000, "boom")).isEmpty();

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(notices)
                .as("delays announced on the wake channel").filteredOn(notice -> notice.matches("\\d+"))
                .anySatisfy(notice -> assertThat(Long.parseLong(notice)).isBetween(29_000L, 30_000L)));
    }
}
