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

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;

import io.github.camelredisdelay.OnDuplicate;
import io.github.camelredisdelay.test.DueSet;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RScript;
import org.redisson.client.codec.StringCodec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The due set kept in small buckets (see {@code due-set.lua}): whatever the order of schedules, cancels and
 * reschedules, every scheduled message is in the bucket its due time belongs to, buckets stay compact, and transfers
 * move due messages in due-time order.
 */
class DueSetLayoutTest extends RedisDelayTestSupport {

    /** Most entries of a bucket (due-set.lua); Redis' default zset-max-listpack-entries is 128. */
    private static final int BUCKET_SIZE = 64;
    /** Redis' default zset-max-listpack-entries: a larger sorted set is not a listpack. */
    private static final int LISTPACK_ENTRIES = 128;

    private QueueShard queue;
    private DueSet dueSet;

    @BeforeEach
    void createQueue() {
        queue = new QueueShard(ConnectedClient.borrowed(redis()), QueueKeys.of(keyPrefix, "q"));
        dueSet = dueSet("q");
    }

    private void schedule(String id, long dueAt) {
        assertThat(queue.schedule(id, envelope(id), DueTime.at(dueAt), OnDuplicate.keep).scheduled()).isTrue();
    }

    private static byte[] envelope(String id) {
        return EnvelopeCodec.encode(new Envelope(id, Map.of()));
    }

    @Test
    void messagesInRandomOrderLandInOrderedCompactBuckets() {
        long base = queue.redisTimeMillis() + 3_600_000;
        Map<String, Long> expected = new HashMap<>();
        Random random = new Random(42);
        for (int i = 0; i < 2_000; i++) {
            // few distinct due times, so runs of equal ones meet the splits
            long dueAt = base + random.nextInt(700);
            schedule("m" + i, dueAt);
            expected.put("m" + i, dueAt);
        }

        assertThat(dueSet.entries()).isEqualTo(expected);
        assertOrderedAndCompact();
    }

    @Test
    void everLaterDueTimesFillBucketsToTheBrim() {
        long base = queue.redisTimeMillis() + 3_600_000;
        for (int i = 0; i < 5 * BUCKET_SIZE; i++) {
            schedule("m" + i, base + i);
        }

        assertThat(dueSet.buckets()).hasSize(5).allSatisfy(bucket -> assertThat(bucket.entries()).hasSize(BUCKET_SIZE));
        assertOrderedAndCompact();
    }

    @Test
    void everEarlierDueTimesLowerTheFirstBucketUntilItIsFull() {
        long base = queue.redisTimeMillis() + 3_600_000;
        for (int i = 0; i < 3 * BUCKET_SIZE; i++) {
            schedule("m" + i, base - i);
        }

        assertThat(dueSet.buckets()).hasSize(3).allSatisfy(bucket -> assertThat(bucket.entries()).hasSize(BUCKET_SIZE));
        assertOrderedAndCompact();
    }

    @Test
    void aRunOfOneDueTimeLongerThanABucketStaysTogether() {
        long dueAt = queue.redisTimeMillis() + 3_600_000;
        for (int i = 0; i < BUCKET_SIZE + 50; i++) {
            schedule("m" + i, dueAt);
        }
        schedule("before", dueAt - 1);
        schedule("after", dueAt + 1);

        assertThat(dueSet.size()).isEqualTo(BUCKET_SIZE + 52);
        assertThat(dueSet.buckets()).anySatisfy(bucket -> assertThat(bucket.entries()).hasSize(BUCKET_SIZE + 50));
        assertThat(queue.cancel("m7")).isTrue();
        assertThat(queue.cancel("after")).isTrue();
        assertThat(dueSet.size()).isEqualTo(BUCKET_SIZE + 50);
        assertOrderedAndCompact();
    }

    @Test
    void aFullBucketEndingInARunOfTheNewDueTimeHandsTheRunToANewBucket() {
        long base = queue.redisTimeMillis() + 3_600_000;
        int distinct = BUCKET_SIZE - 4;
        for (int i = 0; i < distinct; i++) {
            schedule("m" + i, base + i);
        }
        long last = base + distinct;
        for (int i = 0; i < 4; i++) {
            schedule("run" + i, last);
        }

        schedule("run4", last);

        assertThat(dueSet.buckets()).extracting(DueSet.Bucket::bound).containsExactly(base, last);
        assertThat(dueSet.buckets().get(0).entries()).hasSize(distinct);
        assertThat(dueSet.buckets().get(1).entries()).containsOnlyKeys("run0", "run1", "run2", "run3", "run4")
                .allSatisfy((id, dueAt) -> assertThat(dueAt).isEqualTo(last));
        assertOrderedAndCompact();
    }

    /**
     * A run of one due time far longer than a bucket, in a bucket whose bound lies before it (its earlier entries
     * left): a message between the bound and the run joins that bucket, and more of the run's due time stay with the
     * run. A bucket past 64 is never read whole (nor handed to one command: Lua unpacks fewer than 8,000 values).
     */
    @Test
    void aLongRunInABucketBoundedBeforeItTakesMoreOfItsDueTimeWithoutBeingReadWhole() {
        long t = queue.redisTimeMillis() + 3_600_000;
        schedule("early", t);
        for (int i = 0; i < BUCKET_SIZE - 1; i++) {
            schedule("run" + i, t + 1);
        }
        assertThat(queue.cancel("early")).isTrue();
        List<ScheduleRequest> run = new ArrayList<>();
        for (int i = BUCKET_SIZE - 1; i < 4_100; i++) {
            run.add(new ScheduleRequest("run" + i, envelope("run" + i), DueTime.at(t + 1), OnDuplicate.keep));
        }
        assertThat(queue.scheduleAll(run)).allSatisfy(result -> assertThat(result.scheduled()).isTrue());
        schedule("between", t);

        schedule("last", t + 1);

        assertThat(dueSet.buckets()).hasSize(1);
        assertThat(dueSet.size()).isEqualTo(4_102);
        assertThat(queue.cancel("run5")).isTrue();
        assertOrderedAndCompact();
    }

    @Test
    void aBucketCreatedAtTheOriginalBoundOfALoweredOneGetsADistinctName() {
        long t = queue.redisTimeMillis() + 3_600_000;
        schedule("at-t", t);
        for (int i = 0; i < BUCKET_SIZE - 1; i++) {
            schedule("early-" + i, t - 1);
        }
        assertThat(queue.cancel("at-t")).isTrue();
        schedule("early-last", t - 1);

        // the bucket named after t, now bounded by t - 1, is full: a message due at t needs a new bucket bounded by t
        schedule("t-again", t);

        assertThat(dueSet.buckets()).extracting(DueSet.Bucket::bound).containsExactly(t - 1, t);
        assertThat(dueSet.buckets()).extracting(DueSet.Bucket::name).doesNotHaveDuplicates();
        assertThat(queue.cancel("t-again")).isTrue();
        assertThat(dueSet.buckets()).hasSize(1);
        assertOrderedAndCompact();
    }

    @Test
    void oneCallOfManyMessagesKeepsTheBucketsAsOneCallEachWould() {
        long base = queue.redisTimeMillis() + 3_600_000;
        Map<String, Long> expected = new HashMap<>();
        for (int i : shuffled(300, 5)) {
            schedule("old" + i, base + 2L * i);
            expected.put("old" + i, base + 2L * i);
        }
        Random random = new Random(11);
        List<ScheduleRequest> requests = new ArrayList<>();
        for (int i = 0; i < 900; i++) {
            // stretches of one due time longer than a bucket, ever later and ever earlier ones, some before every bucket
            long dueAt = switch (i / 100 % 3) {
                case 0 -> base + 50L * (i / 100);
                case 1 -> base + 700 - i / 2;
                default -> base - 60 + random.nextInt(800);
            };
            requests.add(new ScheduleRequest("new" + i, envelope("new" + i), DueTime.at(dueAt), OnDuplicate.keep));
            expected.put("new" + i, dueAt);
            if (i % 30 == 0) {
                // replacing takes an entry out of a bucket in the middle of the call
                String old = "old" + i / 3;
                requests.add(new ScheduleRequest(old, envelope(old), DueTime.at(base + 1_000 - i), OnDuplicate.replace));
                expected.put(old, base + 1_000L - i);
            }
        }

        assertThat(queue.scheduleAll(requests)).allSatisfy(result -> assertThat(result.scheduled()).isTrue());
        assertThat(dueSet.entries()).isEqualTo(expected);
        assertOrderedAndCompact();
    }

    @Test
    void cancelAndRescheduleFindMessagesInAnyBucketAndEmptyBucketsLeave() {
        long base = queue.redisTimeMillis() + 3_600_000;
        for (int i : shuffled(1_000, 7)) {
            schedule("m" + i, base + i);
        }
        for (int i = 0; i < 1_000; i += 3) {
            assertThat(queue.cancel("m" + i)).as("cancel m%d", i).isTrue();
        }
        for (int i = 1; i < 1_000; i += 3) {
            assertThat(queue.reschedule("m" + i, DueTime.at(base + 5_000 - i)).scheduled()).as("reschedule m%d", i).isTrue();
        }

        Map<String, Long> entries = dueSet.entries();
        assertThat(entries).hasSize(666);
        for (int i = 0; i < 1_000; i++) {
            Long expected = i % 3 == 0 ? null : i % 3 == 1 ? base + 5_000 - i : base + i;
            assertThat(entries.get("m" + i)).as("m%d", i).isEqualTo(expected);
        }
        for (int i = 0; i < 1_000; i++) {
            assertThat(queue.cancel("m" + i)).isEqualTo(i % 3 != 0);
        }
        assertThat(dueSet.buckets()).isEmpty();
        assertThat(redis().getKeys().getKeysByPattern(key("q", "due") + "*")).isEmpty();
    }

    @Test
    void transferMovesDueMessagesAcrossBucketsInDueTimeOrder() {
        // far enough ahead that all 600 are in the due set before the first is due, even on a loaded machine (a
        // message scheduled when already due goes straight to the ready stream, in the order of scheduling)
        long base = queue.redisTimeMillis() + 3_000;
        for (int i : shuffled(600, 3)) {
            schedule("m" + i, base + i / 2);
        }
        schedule("later", base + 60_000);
        assertThat(queue.redisTimeMillis()).as("all scheduled before the first is due").isLessThan(base);
        await().atMost(Duration.ofSeconds(10)).until(() -> queue.redisTimeMillis() > base + 300);

        List<Long> moved = new ArrayList<>();
        for (int step = 0; step < 100 && moved.size() < 600; step++) {
            queue.transfer(7).toCompletableFuture().join();
            moved.clear();
            redis().<String, byte[]>getStream(key("q", "ready"), ConsumerGroup.TEXT_KEYS_BINARY_VALUES)
                    .range(org.redisson.api.stream.StreamMessageId.MIN, org.redisson.api.stream.StreamMessageId.MAX).values()
                    .forEach(fields -> moved.add(StoredRecord.dueAt(fields.get(Wire.FIELD_RECORD))));
        }

        assertThat(moved).hasSize(600).isSorted();
        assertThat(dueSet.entries()).containsOnlyKeys("later");
        TransferResult idle = queue.transfer(7).toCompletableFuture().join();
        assertThat(idle.moved()).isZero();
        assertThat(idle.nextDelayMicros()).isBetween(58_000_000L, 60_000_000L);
    }

    /** 0 to count - 1 in an order fixed by seed. */
    private static List<Integer> shuffled(int count, long seed) {
        List<Integer> numbers = new ArrayList<>(IntStream.range(0, count).boxed().toList());
        Collections.shuffle(numbers, new Random(seed));
        return numbers;
    }

    /** Bounds ascend, every entry lies in its bucket's range, and buckets Redis may keep compact are listpacks. */
    private void assertOrderedAndCompact() {
        List<DueSet.Bucket> buckets = dueSet.buckets();
        for (int b = 0; b < buckets.size(); b++) {
            DueSet.Bucket bucket = buckets.get(b);
            long upper = b + 1 < buckets.size() ? buckets.get(b + 1).bound() : Long.MAX_VALUE;
            assertThat(bucket.entries()).as("bucket %s", bucket.name()).isNotEmpty();
            assertThat(bucket.entries().values()).as("bucket %s", bucket.name())
                    .allSatisfy(dueAt -> assertThat(dueAt).isGreaterThanOrEqualTo(bucket.bound()).isLessThan(upper));
            assertThat(upper).isGreaterThan(bucket.bound());
            String encoding = redis().getScript(StringCodec.INSTANCE).eval(RScript.Mode.READ_ONLY,
                    "return redis.call('OBJECT', 'ENCODING', KEYS[1])", RScript.ReturnType.VALUE,
                    List.of(dueSet.keyOf(bucket)));
            if (bucket.entries().size() <= LISTPACK_ENTRIES) {
                assertThat(encoding).as("bucket %s of %d", bucket.name(), bucket.entries().size()).isIn("listpack", "ziplist");
            }
        }
    }
}
