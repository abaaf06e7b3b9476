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

import io.github.camelredisdelay.OnDuplicate;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.stream.StreamMessageId;
import org.redisson.client.codec.ByteArrayCodec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A message replaced while an earlier version of it is in flight: settling the old delivery, whichever way, or purging
 * it, never removes or reschedules the new version.
 */
class MessageGenerationsTest extends RedisDelayTestSupport {

    private QueueShard queue;

    @BeforeEach
    void createQueue() {
        queue = new QueueShard(ConnectedClient.borrowed(redis()), QueueKeys.of(keyPrefix, "q"));
        queue.group().create();
    }

    private static byte[] envelope(String body) {
        return EnvelopeCodec.encode(new Envelope(body, Map.of()));
    }

    /** Schedules message "a" due now and takes its delivery, which is then in flight. */
    private Delivery inFlight() {
        queue.schedule("a", envelope("v1"), DueTime.after(0), OnDuplicate.keep);
        return queue.group().readNew("c1", 10, null).get(0);
    }

    /**
     * Replaces "a" (in flight) with a scheduled version, cancels that, and schedules "a" afresh as "v3": no record was
     * left under the id, so this one starts anew, and must not pass for the version in flight.
     */
    private ScheduleResult scheduleAnewAfterACancel() {
        queue.schedule("a", envelope("v2"), DueTime.after(60_000), OnDuplicate.replace);
        assertThat(queue.cancel("a")).isTrue();
        return queue.schedule("a", envelope("v3"), DueTime.after(60_000), OnDuplicate.keep);
    }

    private Object storedBody() {
        byte[] record = redis().<byte[], byte[]>getMap(key("q", "msg"), ByteArrayCodec.INSTANCE)
                .get("a".getBytes(StandardCharsets.UTF_8));
        return record == null ? null : EnvelopeCodec.decode(StoredRecord.envelope(record)).body();
    }

    @Test
    void replaceOfAMessageInFlightStoresTheNextGenerationBesideIt() {
        Delivery old = inFlight();

        ScheduleResult replaced = queue.schedule("a", envelope("v2"), DueTime.after(60_000), OnDuplicate.replace);

        assertThat(replaced.scheduled()).isTrue();
        assertThat(queue.group().checkLease("c1", old).current()).isFalse();
        assertThat(storedBody()).isEqualTo("v2");
        assertThat(dueSet("q").dueOf("a")).isEqualTo(replaced.dueAt());
    }

    @Test
    void aDeliveryWhoseEntryCouldNotBeReadIsCurrentWhateverIsStored() {
        Delivery read = inFlight();
        queue.schedule("a", envelope("v2"), DueTime.after(60_000), OnDuplicate.replace);
        Delivery unreadable = Delivery.corrupt(read.entryId(), "a", null, "unreadable");

        ConsumerGroup.LeaseCheck check = queue.group().checkLease("c1", unreadable);

        assertThat(check.holds()).isTrue();
        assertThat(check.current()).isTrue();
    }

    @Test
    void keepOfAMessageInFlightStoresNothingAndSaysSo() {
        Delivery old = inFlight();

        ScheduleResult kept = queue.schedule("a", envelope("v2"), DueTime.after(60_000), OnDuplicate.keep);

        assertThat(kept.scheduled()).isFalse();
        assertThat(queue.group().checkLease("c1", old).current()).isTrue();
        assertThat(storedBody()).isEqualTo("v1");
    }

    @Test
    void acknowledgingTheOldVersionLeavesTheNewOne() {
        Delivery old = inFlight();
        queue.schedule("a", envelope("v2"), DueTime.after(60_000), OnDuplicate.replace);

        assertThat(queue.group().ack(List.of(old))).isEqualTo(1);

        assertThat(storedBody()).isEqualTo("v2");
        assertThat(dueSet("q").dueOf("a")).isNotNull();
        assertThat(redis().getStream(key("q", "ready")).size()).isZero();
    }

    @Test
    void retryOfTheOldVersionLeavesTheNewOneOnItsOwnSchedule() {
        Delivery old = inFlight();
        ScheduleResult replaced = queue.schedule("a", envelope("v2"), DueTime.after(60_000), OnDuplicate.replace);

        assertThat(queue.group().retry("c1", old, 0, "java.lang.IllegalStateException: boom")).contains(Refusal.SUPERSEDED);

        assertThat(dueSet("q").dueOf("a")).isEqualTo(replaced.dueAt());
        assertThat(redis().getMap(key("q", "fail")).isExists()).as("no failure note for the new version").isFalse();
        assertThat(redis().getStream(key("q", "ready")).size()).isZero();
    }

    @Test
    void expiredLeaseOfTheOldVersionIsDroppedNotDeliveredAgain() {
        inFlight();
        queue.schedule("a", envelope("v2"), DueTime.after(60_000), OnDuplicate.replace);

        assertThat(queue.group().reclaim("c2", 0, 10, Reclaimed.FROM_START).deliveries()).isEmpty();

        assertThat(redis().getStream(key("q", "ready")).size()).isZero();
        assertThat(storedBody()).isEqualTo("v2");
    }

    @Test
    void bothVersionsAreDeliveredWhenTheNewOneIsDueWhileTheOldIsInFlight() {
        Delivery old = inFlight();
        queue.schedule("a", envelope("v2"), DueTime.after(0), OnDuplicate.replace);

        Delivery current = queue.group().readNew("c2", 10, null).get(0);

        // the next generation, as nodes of earlier releases, which compare the generation alone, count
        assertThat(current.generation()).isEqualTo((old.generation() + 1) % 65_536);
        assertThat(queue.group().ack(List.of(old))).isEqualTo(1);
        assertThat(storedBody()).as("the old delivery's ack leaves the new version").isEqualTo("v2");
        assertThat(queue.group().ack(List.of(current))).isEqualTo(1);
        assertThat(storedBody()).isNull();
    }

    @Test
    void aMessageScheduledAnewAfterACancelOutlivesTheAcknowledgementOfAnOlderDelivery() {
        Delivery old = inFlight();
        ScheduleResult anew = scheduleAnewAfterACancel();

        assertThat(queue.group().ack(List.of(old))).isEqualTo(1);

        assertThat(storedBody()).isEqualTo("v3");
        assertThat(dueSet("q").dueOf("a")).isEqualTo(anew.dueAt());
    }

    @Test
    void aFailedOlderDeliveryLeavesAMessageScheduledAnewAfterACancelOnItsOwnSchedule() {
        Delivery old = inFlight();
        ScheduleResult anew = scheduleAnewAfterACancel();

        assertThat(queue.group().retry("c1", old, 0, "java.lang.IllegalStateException: boom")).contains(Refusal.SUPERSEDED);

        assertThat(dueSet("q").dueOf("a")).isEqualTo(anew.dueAt());
        assertThat(redis().getMap(key("q", "fail")).isExists()).as("no failure note for the new message").isFalse();
    }

    private long transfer() throws Exception {
        return queue.transfer(1000).toCompletableFuture().get().moved();
    }

    /**
     * A purge, call by call, while a message it started with is moved to the ready stream and replaced (a re-delay of
     * its delivery, say) by a version due after the latest due time of the purge's start, which the purge may leave.
     */
    @Test
    void anIdScheduledAgainAfterThePurgeIsNotDeliveredAtTheDueTimeOfTheVersionThePurgeTookTheRecordOf() throws Exception {
        long now = queue.redisTimeMillis();
        queue.schedule("f", envelope("f"), DueTime.at(now + 100), OnDuplicate.keep);
        queue.schedule("a", envelope("v1"), DueTime.at(now + 200), OnDuplicate.keep);
        queue.schedule("z", envelope("z"), DueTime.at(now + 2_000), OnDuplicate.keep);
        // one message per call: the first walks the due set up to z's due time and removes f
        PurgeProgress progress = queue.inspection().purgeChunk(1, PurgeProgress.START);
        // a falls due meanwhile and goes to the ready stream ahead of the walk, which the purge's last calls remove
        await().atMost(Duration.ofSeconds(5)).until(() -> transfer() == 1);
        long replacedDue = now + 3_000;
        queue.schedule("a", envelope("v2"), DueTime.at(replacedDue), OnDuplicate.replace);
        for (int call = 0; call < 10 && !progress.done(); call++) {
            progress = queue.inspection().purgeChunk(1, progress);
        }
        assertThat(progress.done()).isTrue();

        // a scheduled again, for an hour later, behind messages that put that due time into a bucket of its own
        for (int i = 1; i <= 64; i++) {
            queue.schedule("g" + i, envelope("g"), DueTime.at(replacedDue + i), OnDuplicate.keep);
        }
        ScheduleResult again = queue.schedule("a", envelope("v3"), DueTime.at(now + 3_600_000), OnDuplicate.replace);
        assertThat(again.scheduled()).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> queue.redisTimeMillis() > replacedDue + 64);
        transfer();

        assertThat(queue.group().readNew("c1", 1000, null)).noneSatisfy(delivery -> {
            assertThat(delivery.messageId()).isEqualTo("a");
            assertThat(delivery.dueAt()).isGreaterThan(replacedDue);
        });
    }

    /**
     * Expired leases are taken over one message at a time; an entry of a superseded version, which a take-over drops,
     * does not use that one up: the current message behind it is taken over in the same call.
     */
    @Test
    void aTakeOverThatDropsASupersededEntryTakesOverTheExpiredMessageBehindIt() {
        queue.schedule("a", envelope("v1"), DueTime.after(0), OnDuplicate.keep);
        queue.schedule("b", envelope("b"), DueTime.after(0), OnDuplicate.keep);
        assertThat(queue.group().readNew("crashed~100", 10, null)).hasSize(2);
        // a's delivery is superseded: a newer version is scheduled beside it
        queue.schedule("a", envelope("v2"), DueTime.after(60_000), OnDuplicate.replace);
        await().atMost(Duration.ofSeconds(5)).until(() -> redis().getStream(key("q", "ready"))
                .listPending(QueueKeys.GROUP, StreamMessageId.MIN, StreamMessageId.MAX, 10).stream()
                .allMatch(lease -> lease.getIdleTime() >= 100));

        Reclaimed taken = queue.group().reclaim("next~100", 100, 10, Reclaimed.FROM_START);

        assertThat(taken.deliveries()).extracting(Delivery::messageId).containsExactly("b");
    }
}
