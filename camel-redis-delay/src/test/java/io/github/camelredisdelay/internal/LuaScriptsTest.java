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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import io.github.camelredisdelay.DuplicateMessageException;
import io.github.camelredisdelay.OnDuplicate;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RScript;
import org.redisson.client.codec.ByteArrayCodec;
import org.redisson.client.codec.StringCodec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * Each Lua script against a real Redis, through {@link QueueShard}.
 */
class LuaScriptsTest extends RedisDelayTestSupport {

    private QueueShard queue;

    @BeforeEach
    void createQueue() {
        queue = new QueueShard(ConnectedClient.borrowed(redis()), QueueKeys.of(keyPrefix, "q"));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] envelope(String body) {
        return EnvelopeCodec.encode(new Envelope(body, Map.of()));
    }

    /** Messages m0, m1, ... due now, all delivered to consumer c1. */
    private List<Delivery> inFlight(int count) {
        for (int i = 0; i < count; i++) {
            queue.schedule("m" + i, envelope("x"), DueTime.after(0), OnDuplicate.fail);
        }
        queue.group().create();
        List<Delivery> deliveries = queue.group().readNew("c1", count, null);
        assertThat(deliveries).hasSize(count);
        return deliveries;
    }

    /** Calls {@code purge.lua} until it reports done, at most ten more times. */
    private PurgeProgress purgeToItsEnd(int chunk, PurgeProgress progress) {
        for (int call = 0; call < 10 && !progress.done(); call++) {
            progress = queue.inspection().purgeChunk(chunk, progress);
        }
        return progress;
    }

    @Test
    void anErrorRedisRepliesToAScriptNamesTheScriptNotTheLicence() {
        redis().getBucket(key("q", "msg")).set("a string where the queue keeps a hash");

        assertThatThrownBy(() -> queue.cancel("a")).hasMessageContaining("WRONGTYPE")
                .hasMessageContaining("camel-redis-delay cancel.lua").hasMessageNotContaining("Licensed under");
    }

    @Test
    void everyScriptStartsWithItsNameAndCarriesNoLicenceHeader() {
        for (LuaScript script : LuaScript.values()) {
            assertThat(script.text()).as(script.name()).startsWith("-- camel-redis-delay ")
                    .doesNotContain("Licensed under", "Copyright");
        }
    }

    @Test
    void scheduleComputesTheDueTimeFromRedisClockAndStoresTheRecord() {
        ScheduleResult result = queue.schedule("a", envelope("x"), DueTime.after(60_000), OnDuplicate.keep);

        assertThat(result.scheduled()).isTrue();
        assertThat(result.dueAt()).isEqualTo(result.now() + 60_000);
        assertThat(result.now()).isCloseTo(queue.redisTimeMillis(), org.assertj.core.data.Offset.offset(1000L));
        assertThat(dueSet("q").dueOf("a")).isEqualTo(result.dueAt());
        byte[] record = redis().<byte[], byte[]>getMap(key("q", "msg"), ByteArrayCodec.INSTANCE).get(bytes("a"));
        assertThat(StoredRecord.scheduledAt(record)).isEqualTo(result.now());
        assertThat(StoredRecord.envelope(record)).isEqualTo(envelope("x"));
    }

    @Test
    void scheduleOfADueMessageGoesStraightToTheReadyStream() {
        queue.schedule("a", envelope("x"), DueTime.at(1_000), OnDuplicate.keep);

        assertThat(redis().getScoredSortedSet(key("q", "due")).size()).isZero();
        assertThat(redis().getStream(key("q", "ready")).size()).isEqualTo(1);
    }

    @Test
    void scheduleOfAnExistingIdKeepsReplacesOrFails() {
        ScheduleResult first = queue.schedule("a", envelope("1"), DueTime.after(60_000), OnDuplicate.keep);

        ScheduleResult kept = queue.schedule("a", envelope("2"), DueTime.after(120_000), OnDuplicate.keep);
        assertThat(kept.scheduled()).isFalse();
        assertThat(kept.dueAt()).isEqualTo(first.dueAt());

        ScheduleResult replaced = queue.schedule("a", envelope("3"), DueTime.after(120_000), OnDuplicate.replace);
        assertThat(replaced.scheduled()).isTrue();
        assertThat(replaced.dueAt()).isGreaterThan(first.dueAt());

        assertThatThrownBy(() -> queue.schedule("a", envelope("4"), DueTime.after(0), OnDuplicate.fail))
                .isInstanceOf(DuplicateMessageException.class)
                .satisfies(e -> assertThat(((DuplicateMessageException) e).getExistingDueAt()).isEqualTo(replaced.dueAt()));
    }

    @Test
    void replacingAScheduledMessageWithADueOneMovesItToTheReadyStream() {
        queue.schedule("a", envelope("1"), DueTime.after(60_000), OnDuplicate.keep);

        queue.schedule("a", envelope("2"), DueTime.after(0), OnDuplicate.replace);

        assertThat(redis().getScoredSortedSet(key("q", "due")).size()).isZero();
        assertThat(redis().getStream(key("q", "ready")).size()).isEqualTo(1);
    }

    @Test
    void scheduleAllStoresEveryMessageInOneCallWithOneClockReading() {
        List<ScheduleRequest> requests = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            requests.add(new ScheduleRequest("m" + i, envelope("x" + i), DueTime.after(60_000 + i), OnDuplicate.fail));
        }

        List<ScheduleResult> results = queue.scheduleAll(requests);

        assertThat(results).hasSize(5).allSatisfy(result -> {
            assertThat(result.scheduled()).isTrue();
            assertThat(result.now()).isEqualTo(results.get(0).now());
        });
        assertThat(results.get(4).dueAt()).isEqualTo(results.get(4).now() + 60_004);
        assertThat(dueSet("q").dueOf("m4")).isEqualTo(results.get(4).dueAt());
        assertThat(redis().getMap(key("q", "msg")).size()).isEqualTo(5);
    }

    /**
     * Messages scheduled in one call (a batch, or concurrent schedules sharing a call), a later one of which goes to a
     * bucket of the due set whose key holds a string: Redis would refuse that bucket after the call stored the messages
     * before it, whose callers are told they failed. The call stores nothing, and fails naming the bucket.
     */
    @Test
    void scheduleAllStoresNothingWhenTheBucketOfALaterMessageHoldsAValueOfAnotherType() {
        long dueAt = queue.redisTimeMillis() + 3_600_000;
        queue.schedule("stored", envelope("x"), DueTime.at(dueAt), OnDuplicate.fail);
        redis().getScoredSortedSet(key("q", "due")).add(dueAt + 10, "foreign");
        String foreign = key("q", "due") + ":foreign";
        redis().getBucket(foreign).set("not a sorted set");
        List<ScheduleRequest> requests = List.of(
                new ScheduleRequest("first", envelope("x"), DueTime.at(dueAt), OnDuplicate.fail),
                new ScheduleRequest("second", envelope("x"), DueTime.at(dueAt + 20), OnDuplicate.fail));

        Throwable refused = catchThrowable(() -> queue.scheduleAll(requests));

        assertThat(redis().getMap(key("q", "msg")).readAllKeySet()).as("the records stored").containsExactly("stored");
        assertThat(refused).hasMessageContaining("WRONGTYPE").hasMessageContaining(foreign);
    }

    /**
     * A full bucket of the due set makes room in a new bucket, named after its lower bound (due-set.lua). A value of
     * another type under that name (another application's, or one written by hand) must neither refuse the schedule
     * after it stored the record, which a retry of the id would then keep and never deliver, nor be taken over.
     */
    @Test
    void aFullBucketMakesRoomInABucketUnderAFreeNameWhenAValueOfAnotherTypeHoldsTheBoundsName() {
        long dueAt = queue.redisTimeMillis() + 3_600_000;
        List<ScheduleRequest> requests = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            requests.add(new ScheduleRequest("m" + i, envelope("x"), DueTime.at(dueAt + i), OnDuplicate.fail));
        }
        queue.scheduleAll(requests);
        long later = dueAt + 1_000;
        String foreign = key("q", "due") + ":" + later;
        redis().getBucket(foreign, StringCodec.INSTANCE).set("not a sorted set");

        ScheduleResult result = queue.schedule("later", envelope("x"), DueTime.at(later), OnDuplicate.fail);

        assertThat(result.scheduled()).isTrue();
        assertThat(dueSet("q").dueOf("later")).isEqualTo(later);
        assertThat(redis().getBucket(foreign, StringCodec.INSTANCE).get()).isEqualTo("not a sorted set");
    }

    /**
     * A single schedule replacing a message while the failure notes key holds a string: refused naming that key before
     * it changed anything, so the message stays as it was, still scheduled.
     */
    @Test
    void replaceRefusedForItsFailureNotesKeyLeavesTheMessageScheduledAsItWas() {
        long dueAt = queue.redisTimeMillis() + 3_600_000;
        queue.schedule("m", envelope("old"), DueTime.at(dueAt), OnDuplicate.fail);
        Object before = redis().getMap(key("q", "msg"), ByteArrayCodec.INSTANCE).get("m".getBytes(StandardCharsets.UTF_8));
        redis().getBucket(key("q", "fail")).set("not a hash");

        Throwable refused = catchThrowable(
                () -> queue.schedule("m", envelope("new"), DueTime.at(dueAt + 60_000), OnDuplicate.replace));

        assertThat(refused).hasMessageContaining("WRONGTYPE").hasMessageContaining(key("q", "fail"));
        assertThat(redis().getMap(key("q", "msg"), ByteArrayCodec.INSTANCE).get("m".getBytes(StandardCharsets.UTF_8)))
                .as("the record").isEqualTo(before);
        redis().getKeys().delete(key("q", "fail"));
        InspectedMessage peeked = queue.inspection().peek("m");
        assertThat(peeked.state()).as("its state").isEqualTo("scheduled");
        assertThat(peeked.dueAt()).as("its due time").isEqualTo(dueAt);
    }

    /** A message already due, while the ready stream's key holds a string: refused naming the key, nothing stored. */
    @Test
    void scheduleOfADueMessageRefusedForTheReadyStreamsKeyStoresNothing() {
        redis().getBucket(key("q", "ready")).set("not a stream");

        Throwable refused = catchThrowable(() -> queue.schedule("m", envelope("x"), DueTime.after(0), OnDuplicate.fail));

        assertThat(refused).hasMessageContaining("WRONGTYPE").hasMessageContaining(key("q", "ready"));
        assertThat(redis().getKeys().countExists(key("q", "msg"))).as("the message hash").isZero();
    }

    @Test
    void purgeRemovesAtMostAChunkOfScheduledMessagesPerCallAcrossBuckets() {
        List<ScheduleRequest> requests = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            requests.add(new ScheduleRequest("m" + i, envelope("x"), DueTime.after(60_000 + i), OnDuplicate.fail));
        }
        queue.scheduleAll(requests);

        PurgeProgress first = queue.inspection().purgeChunk(100, PurgeProgress.START);
        PurgeProgress second = queue.inspection().purgeChunk(100, first);

        assertThat(first.removed()).isEqualTo(100);
        assertThat(first.done()).isFalse();
        assertThat(second.removed()).isEqualTo(200);
        assertThat(second.done()).isTrue();
        assertThat(redis().getMap(key("q", "msg")).size()).isZero();
    }

    @Test
    void purgeRemovesEveryMessageOfItsStartAndLeavesThoseScheduledBehindItsWalk() {
        List<ScheduleRequest> requests = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            requests.add(new ScheduleRequest("m" + i, envelope("x"), DueTime.after(60_000 + i), OnDuplicate.fail));
        }
        queue.scheduleAll(requests);

        PurgeProgress progress = queue.inspection().purgeChunk(100, PurgeProgress.START);
        // due before the 100 removed: behind the walk; due with one of the rest (not after the last, where a purge
        // leaves what was scheduled after its start): ahead of it
        queue.schedule("behind", envelope("x"), DueTime.after(30_000), OnDuplicate.fail);
        queue.schedule("ahead", envelope("x"), DueTime.at(dueSet("q").dueOf("m150")), OnDuplicate.fail);
        progress = purgeToItsEnd(100, progress);

        assertThat(progress.done()).isTrue();
        assertThat(progress.removed()).isEqualTo(201);
        assertThat(redis().getMap(key("q", "msg")).readAllKeySet()).containsExactly("behind");
        assertThat(dueSet("q").dueOf("behind")).isNotNull();
    }

    @Test
    void purgeRemovesAMessageInFlightAtItsStartThatFailsAndIsScheduledAgainWhileItRuns() {
        List<Delivery> inFlight = inFlight(4);

        PurgeProgress progress = queue.inspection().purgeChunk(2, PurgeProgress.START);
        // the last delivery fails before the purge reaches its stream entry: removed, not scheduled again
        assertThat(queue.group().retry("c1", inFlight.get(3), 60_000, "boom")).contains(Refusal.PURGED);
        progress = purgeToItsEnd(2, progress);

        assertThat(progress.done()).isTrue();
        assertThat(redis().getMap(key("q", "msg")).readAllKeySet()).as("messages left after the purge").isEmpty();
        assertThat(progress.removed()).as("removed by the purge's calls, not by the retry").isEqualTo(3);
        assertThat(redis().getBucket(key("q", "purge")).isExists()).as("the purge's mark, once it is done").isFalse();
    }

    @Test
    void theMarkOfAPurgeGivenUpLapsesAndFailedDeliveriesAreScheduledAgain() {
        List<Delivery> inFlight = inFlight(3);
        PurgeProgress progress = queue.inspection().purgeChunk(1, PurgeProgress.START);
        assertThat(progress.done()).isFalse();

        // the purge is given up (its process died, say): its mark lapses (written here as lapsed)
        redis().<String, String>getMap(key("q", "purge"), StringCodec.INSTANCE).put("until", "0");

        assertThat(queue.group().retry("c1", inFlight.get(2), 60_000, "boom")).isEmpty();
        assertThat(dueSet("q").dueOf("m2")).isNotNull();
    }

    @Test
    void purgeRemovesAScheduledMessageThatBecomesDueAndWhoseDeliveryFailsWhileItRuns() {
        queue.schedule("first", envelope("x"), DueTime.after(100), OnDuplicate.fail);
        for (int i = 0; i < 3; i++) {
            queue.schedule("m" + i, envelope("x"), DueTime.after(200), OnDuplicate.fail);
        }
        queue.group().create();

        PurgeProgress progress = queue.inspection().purgeChunk(1, PurgeProgress.START);
        // the others become due before the walk reaches them (each 200 ms after its own schedule, so a transfer may
        // move them one by one); one is delivered and fails
        AtomicLong moved = new AtomicLong();
        await().atMost(Duration.ofSeconds(5))
                .until(() -> moved.addAndGet(queue.transfer(10).toCompletableFuture().join().moved()) == 3);
        Delivery failed = queue.group().readNew("c1", 1, null).get(0);
        // a message of the purge's start: removed rather than scheduled again, wherever the walk is
        assertThat(queue.group().retry("c1", failed, 60_000, "boom")).contains(Refusal.PURGED);
        progress = purgeToItsEnd(1, progress);

        assertThat(progress.done()).isTrue();
        assertThat(redis().getMap(key("q", "msg")).readAllKeySet()).as("messages left after the purge").isEmpty();
    }

    @Test
    void aPurgeThatEndsWhileAnotherRunsLeavesTheOtherItsMark() {
        queue.schedule("e1", envelope("x"), DueTime.after(60_000), OnDuplicate.fail);
        queue.schedule("e2", envelope("x"), DueTime.after(61_000), OnDuplicate.fail);
        PurgeProgress earlier = queue.inspection().purgeChunk(1, PurgeProgress.START);
        // scheduled behind the earlier purge's walk: messages of the later purge's start only
        queue.schedule("first", envelope("x"), DueTime.after(100), OnDuplicate.fail);
        for (int i = 0; i < 3; i++) {
            queue.schedule("m" + i, envelope("x"), DueTime.after(200), OnDuplicate.fail);
        }
        queue.group().create();
        PurgeProgress later = queue.inspection().purgeChunk(1, PurgeProgress.START);
        earlier = purgeToItsEnd(1, earlier);
        assertThat(earlier.done()).isTrue();
        assertThat(later.done()).isFalse();

        // while the later purge runs, a message of its start becomes due, is delivered and fails
        await().atMost(Duration.ofSeconds(5)).until(() -> queue.transfer(10).toCompletableFuture().join().moved() == 3);
        Delivery failed = queue.group().readNew("c1", 1, null).get(0);
        queue.group().retry("c1", failed, 120_000, "boom");
        later = purgeToItsEnd(1, later);

        assertThat(later.done()).isTrue();
        assertThat(redis().getMap(key("q", "msg")).readAllKeySet()).as("messages left after both purges").isEmpty();
    }

    @Test
    void aMessageOfAPurgesStartWhoseLastDeliveryFailsWhileItRunsIsRemovedNotDeadLettered() {
        List<Delivery> inFlight = inFlight(4);
        ShardedQueue deadLetterQueue
                = ShardedQueue.of(ConnectedClient.borrowed(redis()), keyPrefix, "q.dead", 1, WriteSync.NONE, Runnable::run);

        PurgeProgress progress = queue.inspection().purgeChunk(2, PurgeProgress.START);
        // the last delivery fails for the last time before the purge reaches its stream entry
        new DeadLetters(queue, deadLetterQueue).move("c1", inFlight.get(3), "boom");
        progress = purgeToItsEnd(2, progress);

        assertThat(progress.done()).isTrue();
        assertThat(redis().getMap(key("q.dead", "msg")).readAllKeySet()).as("dead letters of the purged messages")
                .isEmpty();
    }

    @Test
    void aLeaseCheckDuringAPurgeOfAMessageWhoseStoredValueIsNoRecordStillAnswers() {
        List<Delivery> inFlight = inFlight(4);
        queue.inspection().purgeChunk(2, PurgeProgress.START);
        // a value written behind the component's back, too short for a record's head
        redis().<String, String>getMap(key("q", "msg"), StringCodec.INSTANCE).put(inFlight.get(3).messageId(), "xx");

        ConsumerGroup.LeaseCheck check = queue.group().checkLease("c1", inFlight.get(3));

        assertThat(check.holds()).isTrue();
        assertThat(check.purged()).as("no record to tell when it was scheduled").isFalse();
    }

    @Test
    void purgeUnlinksRecordsHeldInNeitherStructureInTheCallThatEmptiesTheQueue() {
        queue.schedule("scheduled", envelope("x"), DueTime.after(60_000), OnDuplicate.keep);
        Map<String, String> strays = new HashMap<>();
        for (int i = 0; i < 600; i++) {
            strays.put("stray-" + i, "written behind the component's back");
        }
        redis().<String, String>getMap(key("q", "msg"), StringCodec.INSTANCE).putAll(strays);
        redis().<String, String>getMap(key("q", "fail"), StringCodec.INSTANCE).put("stray-0", "1:error");

        PurgeProgress purged = queue.inspection().purgeChunk(100, PurgeProgress.START);

        assertThat(purged.removed()).isEqualTo(601);
        assertThat(purged.done()).isTrue();
        assertThat(redis().getKeys().countExists(key("q", "msg"), key("q", "fail"))).isZero();
    }

    @Test
    void listingOneDeadLetterByIdSearchesOnePageOfTheStreamPerCall() {
        List<ScheduleRequest> requests = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            requests.add(new ScheduleRequest("m" + i, envelope("x"), DueTime.after(0), OnDuplicate.fail));
        }
        queue.scheduleAll(requests);

        ReadyListing listing = queue.inspection().readyListing("m599");
        List<ReadyEntry> firstPage = listing.next(1);
        List<ReadyEntry> secondPage = listing.next(1);

        assertThat(firstPage).singleElement().satisfies(page -> assertThat(page.messageId()).isEmpty());
        assertThat(secondPage).singleElement().satisfies(entry -> assertThat(entry.messageId()).isEqualTo("m599"));
    }

    @Test
    void aListingOfReadyEntriesEndsWithTheEntryThatWasNewestWhenItBegan() {
        queue.scheduleAll(List.of(new ScheduleRequest("m1", envelope("x"), DueTime.after(0), OnDuplicate.fail),
                new ScheduleRequest("m2", envelope("x"), DueTime.after(0), OnDuplicate.fail)));
        ReadyListing listing = queue.inspection().readyListing("");

        List<ReadyEntry> firstPage = listing.next(1);
        queue.schedule("added", envelope("x"), DueTime.after(0), OnDuplicate.fail);
        List<ReadyEntry> secondPage = listing.next(2);

        assertThat(firstPage).extracting(ReadyEntry::messageId).containsExactly("m1");
        assertThat(secondPage).extracting(ReadyEntry::messageId).containsExactly("m2");
        assertThat(listing.next(2)).isEmpty();
    }

    @Test
    void scheduleAllGivesEachMessageItsOwnOutcome() {
        queue.schedule("taken", envelope("old"), DueTime.after(60_000), OnDuplicate.keep);

        List<ScheduleResult> results = queue.scheduleAll(List.of(
                new ScheduleRequest("taken", envelope("new"), DueTime.after(1_000), OnDuplicate.fail),
                new ScheduleRequest("far", envelope("x"), DueTime.at(Long.MAX_VALUE / 2), OnDuplicate.keep),
                new ScheduleRequest("fresh", envelope("x"), DueTime.after(1_000), OnDuplicate.keep),
                new ScheduleRequest("fresh", envelope("again"), DueTime.after(5_000), OnDuplicate.keep)));

        assertThat(results).extracting(ScheduleResult::status).containsExactly(ScheduleResult.Status.DUPLICATE,
                ScheduleResult.Status.DUE_OVERFLOW, ScheduleResult.Status.SCHEDULED, ScheduleResult.Status.UNCHANGED);
        assertThat(results.get(3).dueAt()).isEqualTo(results.get(2).dueAt());
        assertThatThrownBy(() -> results.get(0).orThrow("q", "taken", DueTime.after(1_000)))
                .isInstanceOf(DuplicateMessageException.class);
        assertThatThrownBy(() -> results.get(1).orThrow("q", "far", DueTime.at(Long.MAX_VALUE / 2)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("far").hasMessageContaining("2^53-1")
                .hasMessageContaining("due at " + Long.MAX_VALUE / 2);
        assertThat(dueSet("q").size()).isEqualTo(2);
        assertThat(redis().getMap(key("q", "msg")).keySet()).containsExactlyInAnyOrder("taken", "fresh");
    }

    @Test
    void transferMovesAtMostABatchAndTellsTheDelayToTheNextDueMessage() {
        for (int i = 0; i < 5; i++) {
            queue.schedule("due-" + i, envelope("x"), DueTime.at(1_000 + i), OnDuplicate.keep);
            dueSet("q").plant("due-" + i, 1_000 + i);
        }
        redis().getStream(key("q", "ready")).trim(org.redisson.api.stream.StreamTrimArgs.maxLen(0).noLimit());
        queue.schedule("later", envelope("x"), DueTime.after(60_000), OnDuplicate.keep);

        TransferResult first = queue.transfer(3).toCompletableFuture().join();
        TransferResult second = queue.transfer(3).toCompletableFuture().join();

        assertThat(first).isEqualTo(new TransferResult(3, 0));
        assertThat(second.moved()).isEqualTo(2);
        assertThat(second.nextDelayMicros()).isBetween(59_000_000L, 60_000_000L);
        assertThat(redis().getStream(key("q", "ready")).size()).isEqualTo(5);
        assertThat(queue.transfer(3).toCompletableFuture().join().moved()).isZero();
    }

    @Test
    void transferTellsTheDelayToTheNextDueMessageInMicrosecondsOfRedisClock() {
        long dueAtMicros = queue.schedule("later", envelope("x"), DueTime.after(60_000), OnDuplicate.keep).dueAt() * 1000;

        long before = redisMicros();
        TransferResult result = queue.transfer(10).toCompletableFuture().join();
        long after = redisMicros();

        // a delay from a clock read in ms would be up to 1 ms longer: a timer armed with it fires late
        assertThat(result.nextDelayMicros()).isBetween(dueAtMicros - after, dueAtMicros - before);
    }

    private long redisMicros() {
        return redis().getScript(StringCodec.INSTANCE).eval(RScript.Mode.READ_ONLY,
                "local time = redis.call('TIME') return time[1] * 1000000 + time[2]", RScript.ReturnType.LONG);
    }

    @Test
    void transferOfAnEmptyQueueSaysNothingIsScheduled() {
        assertThat(queue.transfer(10).toCompletableFuture().join()).isEqualTo(new TransferResult(0, -1));
    }

    @Test
    void ackRemovesWhatIsStillPendingAndALateAckLeavesAReusedIdAlone() {
        queue.schedule("late", envelope("x"), DueTime.after(0), OnDuplicate.keep);
        queue.group().create();
        List<Delivery> first = queue.group().readNew("c1", 10, null);
        assertThat(queue.group().ack(first)).isEqualTo(1);
        queue.schedule("late", envelope("again"), DueTime.after(60_000), OnDuplicate.keep);
        queue.schedule("fresh-1", envelope("x"), DueTime.after(0), OnDuplicate.keep);
        queue.schedule("fresh-2", envelope("x"), DueTime.after(0), OnDuplicate.keep);
        List<Delivery> batch = new ArrayList<>(first);
        batch.addAll(queue.group().readNew("c1", 10, null));

        assertThat(queue.group().ack(batch)).isEqualTo(2);
        assertThat(queue.group().ack(first)).isZero();

        assertThat(redis().getMap(key("q", "msg")).keySet()).as("the new message with the reused id").containsExactly("late");
        assertThat(redis().getStream(key("q", "ready")).size()).isZero();
    }

    @Test
    void rescheduleBeyondTheLargestDueTimeFailsAndKeepsTheMessage() {
        ScheduleResult first = queue.schedule("a", envelope("x"), DueTime.after(60_000), OnDuplicate.keep);

        assertThatThrownBy(() -> queue.reschedule("a", DueTime.at(Long.MAX_VALUE / 2)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a").hasMessageContaining("2^53-1");
        assertThat(dueSet("q").dueOf("a")).isEqualTo(first.dueAt());
    }

    @Test
    void cancelRemovesOnlyScheduledMessages() {
        queue.schedule("scheduled", envelope("x"), DueTime.after(60_000), OnDuplicate.keep);
        queue.schedule("ready", envelope("x"), DueTime.after(0), OnDuplicate.keep);

        assertThat(queue.cancel("scheduled")).isTrue();
        assertThat(queue.cancel("ready")).isFalse();
        assertThat(queue.cancel("unknown")).isFalse();
        assertThat(redis().getMap(key("q", "msg")).keySet()).containsExactly("ready");
    }

    @Test
    void rescheduleMovesOnlyScheduledMessages() {
        queue.schedule("a", envelope("x"), DueTime.after(60_000), OnDuplicate.keep);

        ScheduleResult moved = queue.reschedule("a", DueTime.after(5_000));

        assertThat(moved.scheduled()).isTrue();
        assertThat(moved.dueAt()).isEqualTo(moved.now() + 5_000);
        assertThat(queue.reschedule("unknown", DueTime.after(5_000)).scheduled()).isFalse();
    }

    @Test
    void retryDelayBeyondTheLargestDueTimeKeepsTheMessageScheduledAtThatTime() {
        queue.schedule("a", envelope("x"), DueTime.after(0), OnDuplicate.keep);
        queue.group().create();
        Delivery delivery = queue.group().readNew("c1", 10, null).get(0);
        long largestDueTime = (1L << 53) - 1;

        assertThat(queue.group().retry("c1", delivery, largestDueTime, "boom")).isEmpty();

        assertThat(dueSet("q").dueOf("a")).isEqualTo(largestDueTime);
        assertThat(redis().getMap(key("q", "fail")).get("a")).isEqualTo("1:boom");
    }

    @Test
    void retryAcknowledgesTheEntryAndSchedulesTheMessageAgainWithItsFailureNote() {
        queue.schedule("a", envelope("x"), DueTime.after(0), OnDuplicate.keep);
        queue.group().create();
        Delivery delivery = queue.group().readNew("c1", 10, null).get(0);

        assertThat(queue.group().retry("c1", delivery, 100, "java.lang.IllegalStateException: boom")).isEmpty();
        assertThat(queue.group().retry("c1", delivery, 100, "again")).as("no longer pending").contains(Refusal.LEASE_LOST);

        assertThat(redis().getMap(key("q", "fail")).get("a")).isEqualTo("1:java.lang.IllegalStateException: boom");
        await().atMost(Duration.ofSeconds(5)).until(() -> queue.transfer(10).toCompletableFuture().join().moved() == 1);
        Delivery second = queue.group().readNew("c1", 10, null).get(0);
        assertThat(second.deliveryCount()).isEqualTo(2);
        assertThat(second.lastError()).isEqualTo("java.lang.IllegalStateException: boom");
    }

    @Test
    void reclaimTakesOverExpiredLeasesWithTheirDeliveryCount() {
        queue.schedule("a", envelope("x"), DueTime.after(0), OnDuplicate.keep);
        queue.group().create();
        queue.group().readNew("crashed", 10, null);

        assertThat(queue.group().reclaim("c2", 60_000, 10, Reclaimed.FROM_START).deliveries()).as("lease not yet expired")
                .isEmpty();
        await().atMost(Duration.ofSeconds(5))
                .until(() -> !queue.group().reclaim("c2", 100, 10, Reclaimed.FROM_START).deliveries().isEmpty());
        List<Delivery> again = queue.group().reclaim("c3", 0, 10, Reclaimed.FROM_START).deliveries();

        assertThat(again).singleElement().satisfies(d -> {
            assertThat(d.messageId()).isEqualTo("a");
            assertThat(d.deliveryCount()).isEqualTo(3);
        });
    }

    @Test
    void reclaimLooksAtTenTimesTheCountOfPendingEntriesFromTheCursorItReturned() {
        for (int i = 0; i < 25; i++) {
            queue.schedule("live" + i, envelope("x"), DueTime.after(0), OnDuplicate.keep);
        }
        queue.schedule("expired", envelope("x"), DueTime.after(0), OnDuplicate.keep);
        queue.group().create();
        List<Delivery> live = queue.group().readNew("busy", 25, null);
        queue.group().readNew("crashed", 1, null);
        await().pollDelay(Duration.ofMillis(150)).atMost(Duration.ofSeconds(5)).until(() -> true);
        queue.group().extendLeases("busy", live.stream().map(Delivery::entryId).toList()).toCompletableFuture().join();

        Reclaimed first = queue.group().reclaim("c2", 100, 1, Reclaimed.FROM_START);
        Reclaimed second = queue.group().reclaim("c2", 100, 1, first.cursor());
        Reclaimed third = queue.group().reclaim("c2", 100, 1, second.cursor());

        assertThat(first.deliveries()).isEmpty();
        assertThat(first.cursor()).isEqualTo(live.get(10).entryId().toString());
        assertThat(second.deliveries()).isEmpty();
        assertThat(third.deliveries()).singleElement().satisfies(d -> assertThat(d.messageId()).isEqualTo("expired"));
        assertThat(third.reachedEnd()).isTrue();
    }

    @Test
    void reclaimDropsALeaseWhoseEntryWasDeleted() {
        queue.schedule("a", envelope("x"), DueTime.after(0), OnDuplicate.keep);
        queue.schedule("b", envelope("y"), DueTime.after(0), OnDuplicate.keep);
        queue.group().create();
        List<Delivery> taken = queue.group().readNew("crashed", 10, null);
        redis().getStream(key("q", "ready")).remove(taken.get(0).entryId());

        assertThat(queue.group().reclaim("c2", 0, 10, Reclaimed.FROM_START).deliveries()).singleElement()
                .satisfies(d -> assertThat(d.messageId()).isEqualTo("b"));
        assertThat(redis().getStream(key("q", "ready")).getPendingInfo(QueueKeys.GROUP).getTotal()).isEqualTo(1);
    }

    @Test
    void migrationMarksOfMoreIdsThanLuaUnpacksAreClearedInOneCall() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 9_000; i++) {
            ids.add("rdq-" + i);
        }
        redis().getSet(key("q", "migrated")).addAll(ids);

        queue.migration().forgetMigrated(new MigrationLease("legacy", "task", 1), ids);

        assertThat(redis().getSet(key("q", "migrated")).isExists()).isFalse();
    }

    @Test
    void statsCountMessagesByState() {
        queue.schedule("scheduled", envelope("x"), DueTime.after(60_000), OnDuplicate.keep);
        queue.schedule("in-flight", envelope("x"), DueTime.after(0), OnDuplicate.keep);
        queue.group().create();
        queue.group().readNew("c1", 10, null);
        queue.schedule("ready", envelope("x"), DueTime.at(1_000), OnDuplicate.keep);

        QueueCounts counts = queue.counts();

        assertThat(counts.scheduled()).isEqualTo(1);
        assertThat(counts.inFlight()).isEqualTo(1);
        assertThat(counts.ready()).isEqualTo(1);
        // due at 1970, which is past: due now, and overdue since
        assertThat(counts.oldestOverdueMs()).isBetween(0L, 5_000L);
        assertThat(queue.size()).isEqualTo(3);
    }

    @Test
    void retireRemovesOnlyAConsumerThatHoldsNothing() {
        queue.schedule("a", envelope("x"), DueTime.after(0), OnDuplicate.keep);
        queue.group().create();
        queue.group().readNew("holder", 10, null);
        // a read that brings nothing adds no consumer on Redis 7.0 and older (Valkey adds one): added explicitly
        redis().getStream(key("q", "ready")).createConsumer(QueueKeys.GROUP, "idle");
        assertThat(redis().getStream(key("q", "ready")).listConsumers(QueueKeys.GROUP)).extracting(c -> c.getName())
                .containsExactlyInAnyOrder("holder", "idle");

        queue.group().retire("holder").toCompletableFuture().join();
        queue.group().retire("idle").toCompletableFuture().join();

        assertThat(redis().getStream(key("q", "ready")).listConsumers(QueueKeys.GROUP))
                .extracting(c -> c.getName()).containsExactly("holder");
    }
}
