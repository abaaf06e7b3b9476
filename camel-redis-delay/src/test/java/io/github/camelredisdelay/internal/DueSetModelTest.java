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

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.LongStream;

import io.github.camelredisdelay.DuplicateMessageException;
import io.github.camelredisdelay.OnDuplicate;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.redisson.api.RMap;
import org.redisson.api.RScript;
import org.redisson.client.codec.ByteArrayCodec;
import org.redisson.client.codec.StringCodec;
import org.redisson.codec.CompositeCodec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

/**
 * Model-based randomized test of the due set (see {@code due-set.lua}): schedules of one or many messages per call
 * (keep, replace, fail; due now or far ahead; ties, ever later, ever earlier, long runs of one due time), cancels,
 * reschedules and transfers run against a real Redis through {@link QueueShard}, and after every step the due set, the
 * ready stream and every reply are compared with a plain in-memory model (id to due time, ids ready, ids stored), and
 * the due set's layout is checked: bounds ascend and are distinct, every entry lies in its bucket's range, no bucket in
 * the index is empty, no bucket key lies outside the index, and a bucket Redis may keep compact is compact. The wake
 * channel's announcements are counted too (PUBLISH calls): a schedule or reschedule that makes a new earliest due time
 * must announce it, a transfer that moved messages announces WAKE_READY. Seeds 1 and 2 by default (on each server the
 * build tests); more with -DdueSetModel.seeds=1-40 (CONTRIBUTING). Every seed runs STEPS operations, and fails if that
 * takes longer than BUDGET_NANOS.
 */
class DueSetModelTest extends RedisDelayTestSupport {

    private static final int BUCKET_SIZE = 64;
    private static final int LISTPACK_ENTRIES = 128;
    /** Redis' compact encoding of a small sorted set: a listpack, a ziplist before Redis 7. */
    private static final Set<String> COMPACT_ENCODINGS = Set.of("listpack", "ziplist");
    /** Operations per seed: about 4-5 s on an idle machine of two cores, checks included. */
    private static final int STEPS = 1_000;
    /** What a seed may take at most, far beyond what a busy machine needs: it fails past that, not to run for ever. */
    private static final long BUDGET_NANOS = 60_000_000_000L;
    /** Far enough ahead that no future due time comes due while a seed runs. */
    private static final long AHEAD = 3_600_000;
    /** Far enough behind that a past due time is due whatever the clock says. */
    private static final long BEHIND = 7_200_000;
    private static final long OVERFLOW = 1L << 53;

    /** Reads the index, every bucket with scores and encoding, bucket keys outside the index, new stream entries. */
    private static final String SNAPSHOT = """
            local out = {}
            local index = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
            local buckets = {}
            for i = 1, #index, 2 do
              local key = KEYS[1] .. ':' .. index[i]
              local encoding = 'missing'
              if redis.call('EXISTS', key) == 1 then
                encoding = redis.call('OBJECT', 'ENCODING', key)
              end
              buckets[#buckets + 1] = {index[i], index[i + 1], encoding, redis.call('ZRANGE', key, 0, -1, 'WITHSCORES')}
            end
            out[1] = buckets
            local known = {}
            for i = 1, #index, 2 do
              known[KEYS[1] .. ':' .. index[i]] = true
            end
            local orphans = {}
            for _, key in ipairs(redis.call('KEYS', KEYS[1] .. ':*')) do
              if not known[key] then
                orphans[#orphans + 1] = key
              end
            end
            out[2] = orphans
            local stream = {}
            local last = ARGV[1]
            if redis.call('EXISTS', KEYS[2]) == 1 then
              for _, entry in ipairs(redis.call('XRANGE', KEYS[2], '(' .. ARGV[1], '+')) do
                last = entry[1]
                local fields = entry[2]
                for f = 1, #fields, 2 do
                  if fields[f] == 'i' then
                    stream[#stream + 1] = fields[f + 1]
                  end
                end
              end
            end
            out[3] = stream
            out[4] = last
            out[5] = redis.call('HLEN', KEYS[3])
            out[6] = tonumber(string.match(redis.call('INFO', 'commandstats'), 'cmdstat_publish:calls=(%d+)') or '0')
            return out
            """;

    private enum Mode {
        TIES,
        SPREAD,
        LATER,
        EARLIER,
        RUN
    }

    private QueueShard queue;
    private String dueKey;
    private String readyKey;
    private String msgKey;
    private Random random;
    private long base;
    private long past;

    // the model
    private final Map<String, Long> scheduled = new HashMap<>();
    private final Set<String> stored = new HashSet<>();
    private final List<String> readyExpected = new ArrayList<>();
    private final List<String> readySeen = new ArrayList<>();
    private String lastStreamId = "0-0";

    /** Operations planned to run next, in order. */
    private final java.util.Deque<java.util.function.Supplier<String>> plan = new java.util.ArrayDeque<>();
    /** PUBLISH calls of Redis so far. */
    private long publishes;
    /** Wake-ups the last operation must and may publish (WAKE_READY and delays); -1: not checked. */
    private int publishedAtLeast = -1;
    private int publishedAtMost;
    private int modelVersion;
    private final Map<Set<String>, List<String>> sortedIds = new java.util.IdentityHashMap<>();
    private final Map<Set<String>, Integer> sortedAt = new java.util.IdentityHashMap<>();

    // the due-time generator
    private Mode mode = Mode.TIES;
    private int modeLeft;
    private long cursor;
    private int ties;
    private int runLeft;
    private int nextId;

    // layout bookkeeping
    private final Set<String> grownPastListpack = new HashSet<>();
    /** Bucket sizes at the last look, the largest of them, and how many messages the step since added at most. */
    private final Map<String, Integer> previousSizes = new HashMap<>();
    private int largestBefore;
    private int addedInStep;
    private int mixedGrownBucketsSeen;
    private int maxBucketSeen;
    private int splitsSeen;
    private int previousBuckets;
    private final StringBuilder trace = new StringBuilder();

    /** Seeds 1 and 2, or those of system property dueSetModel.seeds: "7-40" or "3,9,12". */
    static LongStream seeds() {
        String seeds = System.getProperty("dueSetModel.seeds", "1-2");
        if (seeds.contains("-")) {
            String[] range = seeds.split("-");
            return LongStream.rangeClosed(Long.parseLong(range[0].trim()), Long.parseLong(range[1].trim()));
        }
        return java.util.Arrays.stream(seeds.split(",")).mapToLong(seed -> Long.parseLong(seed.trim()));
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void randomOperationsKeepTheDueSetEqualToTheModel(long seed) {
        String name = "m" + seed;
        QueueKeys keys = QueueKeys.of(keyPrefix, name);
        queue = new QueueShard(ConnectedClient.borrowed(redis()), keys);
        dueKey = keys.due();
        readyKey = keys.ready();
        msgKey = keys.msg();
        random = new Random(seed);
        base = queue.redisTimeMillis() + AHEAD;
        past = base - AHEAD - BEHIND;
        cursor = base + 50_000;
        long started = System.nanoTime();
        long operating = 0;
        long checking = 0;
        int step = 0;
        // the baseline: PUBLISH calls before this seed
        check(seed, -1, "start");
        for (; step < STEPS && System.nanoTime() - started < BUDGET_NANOS; step++) {
            if (modeLeft-- <= 0) {
                nextMode();
            }
            long t0 = System.nanoTime();
            String operation = operate(step);
            long t1 = System.nanoTime();
            check(seed, step, operation);
            operating += t1 - t0;
            checking += System.nanoTime() - t1;
        }
        System.out.printf("DueSetModelTest seed %d: %d steps in %d ms, %d scheduled, %d ready, largest bucket %d,"
                          + " %d mixed buckets past %d seen, %d bucket count changes; %d ms operating, %d ms checking%n",
                seed, step, (System.nanoTime() - started) / 1_000_000, scheduled.size(), readyExpected.size(),
                maxBucketSeen, mixedGrownBucketsSeen, BUCKET_SIZE, splitsSeen, operating / 1_000_000, checking / 1_000_000);
        assertThat(step).as("steps run within %d s", BUDGET_NANOS / 1_000_000_000L).isEqualTo(STEPS);
    }

    private void nextMode() {
        mode = Mode.values()[random.nextInt(Mode.values().length)];
        modeLeft = 50 + random.nextInt(250);
        ties = 1 + random.nextInt(random.nextBoolean() ? 3 : 40);
        runLeft = 0;
    }

    private long futureDue() {
        return switch (mode) {
            case TIES -> base + 1_000 * (long) random.nextInt(ties);
            case SPREAD -> base + random.nextInt(3_000);
            case LATER -> cursor += random.nextInt(3);
            // never nearer than half an hour from now
            case EARLIER -> cursor = Math.max(base - AHEAD / 4, cursor - random.nextInt(3));
            case RUN -> {
                if (runLeft-- <= 0) {
                    runLeft = BUCKET_SIZE + random.nextInt(3 * BUCKET_SIZE);
                    cursor = base + random.nextInt(200_000);
                }
                yield random.nextInt(20) == 0 ? cursor + random.nextInt(3) - 1 : cursor;
            }
        };
    }

    private DueTime anyDue() {
        int dice = random.nextInt(100);
        if (dice < 6) {
            return DueTime.at(past + random.nextInt(5));
        }
        if (dice == 6) {
            return DueTime.at(OVERFLOW + random.nextInt(3));
        }
        return DueTime.at(futureDue());
    }

    private String pickId() {
        int dice = random.nextInt(100);
        if (dice < 55 || scheduled.isEmpty() && stored.isEmpty()) {
            return "id" + nextId++;
        }
        if (dice < 85 && !scheduled.isEmpty()) {
            return randomOf(scheduled.keySet());
        }
        if (dice < 95 && !stored.isEmpty()) {
            return randomOf(stored);
        }
        // an id that may have been cancelled or never used
        return "id" + random.nextInt(nextId + 1);
    }

    private String randomOf(Set<String> ids) {
        // deterministic for a seed: sort, then pick; sorted again only once the model changed
        List<String> sorted = sortedIds.get(ids);
        if (sorted == null || sortedAt.get(ids) != modelVersion) {
            sorted = new ArrayList<>(ids);
            sorted.sort(null);
            sortedIds.put(ids, sorted);
            sortedAt.put(ids, modelVersion);
        }
        return sorted.get(random.nextInt(sorted.size()));
    }

    private OnDuplicate anyRule() {
        int dice = random.nextInt(10);
        return dice < 4 ? OnDuplicate.replace : dice < 8 ? OnDuplicate.keep : OnDuplicate.fail;
    }

    private String operate(int step) {
        modelVersion++;
        if (!plan.isEmpty()) {
            return plan.poll().get();
        }
        int dice = random.nextInt(100);
        if (dice == 99) {
            return hollowRun();
        }
        boolean crowded = scheduled.size() > 700;
        if (crowded && dice < 30) {
            return drain();
        }
        if (dice < 40) {
            return scheduleMany();
        }
        if (dice < 60) {
            return scheduleOne();
        }
        if (dice < 72) {
            return cancel();
        }
        if (dice < 86) {
            return reschedule();
        }
        if (dice < 95) {
            return transferDue();
        }
        return drain();
    }

    // ---- operations against Redis and the model

    /**
     * Plans a bucket whose bound lies before a run of one due time: an entry at t0 and 62 at t1 share a bucket, the one
     * at t0 is cancelled, the run at t1 grows past a bucket, then come a message between t0 and t1 and more at t1 (the
     * ZCOUNT path of makeRoom with a run shorter than the bucket).
     */
    private String hollowRun() {
        long t0 = base + 400_000 + random.nextInt(100_000);
        long t1 = t0 + 1 + random.nextInt(5);
        String first = "id" + nextId++;
        List<ScheduleRequest> start = new ArrayList<>();
        start.add(new ScheduleRequest(first, envelope(first), DueTime.at(t0), OnDuplicate.keep));
        start.addAll(fresh(BUCKET_SIZE - 2, t1));
        int run = BUCKET_SIZE + random.nextInt(3 * BUCKET_SIZE);
        plan.add(() -> cancel(first));
        plan.add(() -> scheduleAll(fresh(run, t1)));
        plan.add(() -> scheduleAll(fresh(1 + random.nextInt(3), t0 + random.nextInt((int) (t1 - t0)))));
        plan.add(() -> scheduleAll(fresh(1 + random.nextInt(3), t1 + random.nextInt(2))));
        return "hollow run: " + scheduleAll(start);
    }

    /** New messages due at dueAt. */
    private List<ScheduleRequest> fresh(int count, long dueAt) {
        List<ScheduleRequest> requests = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String id = "id" + nextId++;
            requests.add(new ScheduleRequest(id, envelope(id), DueTime.at(dueAt), OnDuplicate.keep));
        }
        return requests;
    }

    private String scheduleMany() {
        int count = 1 + random.nextInt(random.nextInt(4) == 0 ? 200 : 30);
        List<ScheduleRequest> requests = new ArrayList<>();
        List<String> inCall = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String id;
            if (!inCall.isEmpty() && random.nextInt(8) == 0) {
                // an id earlier in this very call
                id = inCall.get(random.nextInt(inCall.size()));
            } else {
                id = pickId();
            }
            inCall.add(id);
            DueTime due = random.nextInt(3) == 0 && !requests.isEmpty()
                    ? requests.get(random.nextInt(requests.size())).due() // equal to one earlier in the call
                    : anyDue();
            requests.add(new ScheduleRequest(id, envelope(id), due, anyRule()));
        }
        return scheduleAll(requests);
    }

    private String scheduleAll(List<ScheduleRequest> requests) {
        addedInStep = requests.size();
        String description = "scheduleAll " + describe(requests);
        trace(description);
        List<ScheduleResult> results = queue.scheduleAll(requests);
        assertThat(results).as(description).hasSize(requests.size());
        long now = results.get(0).now();
        Long earliestBefore = earliestDue();
        Long earliestOfCall = null;
        boolean madeReady = false;
        for (int i = 0; i < requests.size(); i++) {
            ScheduleRequest request = requests.get(i);
            Expected expected = applySchedule(request, now);
            if (stores(expected.status)) {
                if (expected.dueAt > now) {
                    earliestOfCall = earliestOfCall == null ? expected.dueAt : Math.min(earliestOfCall, expected.dueAt);
                } else {
                    madeReady = true;
                }
            }
            ScheduleResult result = results.get(i);
            assertThat(result.status()).as("%s: status of message %d (%s)", description, i, request.id())
                    .isEqualTo(expected.status);
            assertThat(result.dueAt()).as("%s: due time of message %d (%s)", description, i, request.id())
                    .isEqualTo(expected.dueAt);
        }
        expectWakeUps(earliestBefore, earliestOfCall, madeReady);
        return description;
    }

    /**
     * A schedule call must announce a due time of its own that is earlier than every one before it and still the
     * earliest after it (the transfer task is timed for a later one), and may announce its earliest anyway (the
     * transfer task keeps an earlier timer); plus WAKE_READY once when a message went straight to the ready stream.
     */
    private void expectWakeUps(Long earliestBefore, Long earliestOfCall, boolean madeReady) {
        boolean must = earliestOfCall != null && (earliestBefore == null || earliestOfCall < earliestBefore)
                && earliestOfCall.equals(earliestDue());
        publishedAtLeast = (must ? 1 : 0) + (madeReady ? 1 : 0);
        publishedAtMost = (earliestOfCall != null ? 1 : 0) + (madeReady ? 1 : 0);
    }

    private Long earliestDue() {
        return scheduled.values().stream().min(Long::compare).orElse(null);
    }

    private String scheduleOne() {
        String id = pickId();
        DueTime due = anyDue();
        OnDuplicate rule = anyRule();
        ScheduleRequest request = new ScheduleRequest(id, envelope(id), due, rule);
        String description = "schedule " + describe(List.of(request));
        addedInStep = 1;
        trace(description);
        Expected expected = expect(request, 0);
        publishedAtLeast = 0;
        publishedAtMost = 0;
        Long earliestBefore = earliestDue();
        switch (expected.status) {
            case DUPLICATE -> assertThatThrownBy(() -> queue.schedule(id, envelope(id), due, rule)).as(description)
                    .isInstanceOf(DuplicateMessageException.class);
            case DUE_OVERFLOW -> assertThatThrownBy(() -> queue.schedule(id, envelope(id), due, rule)).as(description)
                    .isInstanceOf(IllegalArgumentException.class);
            default -> {
                ScheduleResult result = queue.schedule(id, envelope(id), due, rule);
                expected = applySchedule(request, result.now());
                assertThat(result.status()).as(description).isEqualTo(expected.status);
                assertThat(result.dueAt()).as(description).isEqualTo(expected.dueAt);
                boolean scheduledNow = stores(expected.status);
                boolean future = scheduledNow && expected.dueAt > result.now();
                expectWakeUps(earliestBefore, future ? expected.dueAt : null, scheduledNow && !future);
            }
        }
        return description;
    }

    private record Expected(ScheduleResult.Status status, long dueAt) {
    }

    /** What schedule.lua does with one message, applied to the model; now is the reply's (a past due time is now). */
    private Expected applySchedule(ScheduleRequest request, long now) {
        Expected expected = expect(request, now);
        if (stores(expected.status)) {
            String id = request.id();
            scheduled.remove(id);
            stored.add(id);
            if (request.due().millis() <= now) {
                readyExpected.add(id);
            } else {
                scheduled.put(id, request.due().millis());
            }
        }
        return expected;
    }

    private Expected expect(ScheduleRequest request, long now) {
        String id = request.id();
        long dueAt = request.due().millis();
        if (dueAt >= OVERFLOW) {
            return new Expected(ScheduleResult.Status.DUE_OVERFLOW, -1);
        }
        if (stored.contains(id) && request.onDuplicate() != OnDuplicate.replace) {
            Long existing = scheduled.get(id);
            return new Expected(
                    request.onDuplicate() == OnDuplicate.fail
                            ? ScheduleResult.Status.DUPLICATE
                            : ScheduleResult.Status.UNCHANGED,
                    existing == null ? -1 : existing);
        }
        return new Expected(
                stored.contains(id) ? ScheduleResult.Status.REPLACED : ScheduleResult.Status.SCHEDULED,
                Math.max(dueAt, now));
    }

    /** Whether a schedule of this outcome stored its message. */
    private static boolean stores(ScheduleResult.Status status) {
        return status == ScheduleResult.Status.SCHEDULED || status == ScheduleResult.Status.REPLACED;
    }

    private String cancel() {
        return cancel(pickId());
    }

    private String cancel(String id) {
        String description = "cancel " + id;
        trace(description);
        boolean expected = scheduled.containsKey(id);
        if (expected) {
            scheduled.remove(id);
            stored.remove(id);
        }
        assertThat(queue.cancel(id)).as(description).isEqualTo(expected);
        publishedAtLeast = 0;
        publishedAtMost = 0;
        return description;
    }

    private String reschedule() {
        String id = pickId();
        DueTime due = random.nextInt(4) == 0 ? DueTime.at(past + random.nextInt(5)) : anyDue();
        String description = "reschedule " + id + " at " + rel(due.millis());
        addedInStep = 1;
        trace(description);
        if (due.millis() >= OVERFLOW) {
            assertThatThrownBy(() -> queue.reschedule(id, due)).as(description)
                    .isInstanceOf(IllegalArgumentException.class);
            return description;
        }
        Long earliestOfOthers = scheduled.entrySet().stream().filter(entry -> !entry.getKey().equals(id))
                .map(Map.Entry::getValue).min(Long::compare).orElse(null);
        ScheduleResult result = queue.reschedule(id, due);
        publishedAtLeast = 0;
        publishedAtMost = 0;
        if (scheduled.containsKey(id)) {
            // a due time in the past is now, and stays in the due set, for the transfer
            long dueAt = Math.max(due.millis(), result.now());
            scheduled.put(id, dueAt);
            assertThat(result.status()).as(description).isEqualTo(ScheduleResult.Status.SCHEDULED);
            assertThat(result.dueAt()).as(description).isEqualTo(dueAt);
            publishedAtLeast = earliestOfOthers == null || dueAt < earliestOfOthers ? 1 : 0;
            publishedAtMost = 1;
        } else {
            assertThat(result.status()).as(description).isEqualTo(ScheduleResult.Status.UNCHANGED);
            assertThat(result.dueAt()).as(description).isEqualTo(-1);
        }
        return description;
    }

    /** Moves messages due now: those rescheduled into the past. */
    private String transferDue() {
        int batch = 1 + random.nextInt(random.nextBoolean() ? 3 : 40);
        String description = "transfer " + batch;
        trace(description);
        List<String> order = earliestFirst();
        List<String> due = order.stream().filter(id -> scheduled.get(id) < dueLine()).toList();
        List<String> moving = due.subList(0, Math.min(batch, due.size()));
        long before = queue.redisTimeMillis();
        TransferResult result = queue.transfer(batch).toCompletableFuture().join();
        long after = queue.redisTimeMillis();
        moveToReady(moving);
        assertThat(result.moved()).as(description).isEqualTo(moving.size());
        publishedAtLeast = moving.isEmpty() ? 0 : 1;
        publishedAtMost = publishedAtLeast;
        if (moving.size() == batch) {
            assertThat(result.nextDelayMicros()).as(description).isZero();
        } else if (scheduled.isEmpty()) {
            assertThat(result.nextDelayMicros()).as(description).isEqualTo(-1);
        } else {
            long earliest = scheduled.values().stream().min(Long::compare).orElseThrow();
            assertThat(result.nextDelayMicros()).as(description + ": delay to the earliest, " + rel(earliest))
                    .isBetween((earliest - after - 1) * 1_000, (earliest - before) * 1_000);
        }
        return description;
    }

    /**
     * Makes scheduled messages ready by id, whatever their due time and out of due order, as a redrive does with the
     * dead letters of its queue ({@code redrive-ready.lua}); one named twice is made ready once.
     */
    private String drain() {
        List<String> picked = new ArrayList<>(scheduled.keySet());
        Collections.shuffle(picked, random);
        picked = new ArrayList<>(
                picked.subList(0, Math.min(picked.size(), 1 + random.nextInt(random.nextBoolean() ? 10 : 300))));
        String description = "makeReadyForRedrive of " + picked.size();
        trace(description);
        RMap<String, byte[]> records
                = redis().getMap(msgKey, new CompositeCodec(StringCodec.INSTANCE, ByteArrayCodec.INSTANCE));
        List<ShardInspection.MessageVersion> versions = new ArrayList<>();
        for (String id : picked) {
            versions.add(new ShardInspection.MessageVersion(id, StoredRecord.version(records.get(id))));
        }
        if (!versions.isEmpty() && random.nextInt(4) == 0) {
            versions.add(versions.get(0));
        }
        List<ReadyEntry> made = queue.inspection().makeReadyForRedrive(versions);
        moveToReady(picked);
        assertThat(made).extracting(ReadyEntry::messageId).as(description).containsExactlyElementsOf(picked);
        publishedAtLeast = 0;
        publishedAtMost = 0;
        return description;
    }

    private void moveToReady(List<String> ids) {
        for (String id : List.copyOf(ids)) {
            scheduled.remove(id);
            readyExpected.add(id);
        }
    }

    /** Scheduled ids by due time, ties by id (Redis orders equal scores by member). */
    private List<String> earliestFirst() {
        List<String> order = new ArrayList<>(scheduled.keySet());
        order.sort(Comparator.<String, Long>comparing(scheduled::get).thenComparing(Comparator.naturalOrder()));
        return order;
    }

    // ---- the check after every step

    @SuppressWarnings("unchecked")
    private void check(long seed, int step, String operation) {
        List<Object> snapshot = redis().getScript(StringCodec.INSTANCE).eval(RScript.Mode.READ_ONLY, SNAPSHOT,
                RScript.ReturnType.LIST, List.of(dueKey, readyKey, msgKey), lastStreamId);
        String where = "seed " + seed + ", step " + step + " (" + operation + ")";
        List<Object> buckets = (List<Object>) snapshot.get(0);
        List<Object> orphans = (List<Object>) snapshot.get(1);
        List<Object> stream = (List<Object>) snapshot.get(2);
        lastStreamId = (String) snapshot.get(3);
        long hashLength = (Long) snapshot.get(4);
        long publishCalls = (Long) snapshot.get(5);
        long published = publishCalls - publishes;
        publishes = publishCalls;
        if (publishedAtLeast >= 0 && (published < publishedAtLeast || published > publishedAtMost)) {
            fail("%s: %d wake-ups published, expected %d to %d%n%s", where, published, publishedAtLeast,
                    publishedAtMost, trace);
        }
        publishedAtLeast = -1;

        Map<String, Long> entries = new HashMap<>();
        long previousBound = Long.MIN_VALUE;
        Set<String> names = new HashSet<>();
        List<String> layout = new ArrayList<>();
        for (int b = 0; b < buckets.size(); b++) {
            List<Object> bucket = (List<Object>) buckets.get(b);
            String name = (String) bucket.get(0);
            long bound = Long.parseLong((String) bucket.get(1));
            String encoding = (String) bucket.get(2);
            List<Object> flat = (List<Object>) bucket.get(3);
            long upper = b + 1 < buckets.size()
                    ? Long.parseLong((String) ((List<Object>) buckets.get(b + 1)).get(1))
                    : Long.MAX_VALUE;
            names.add(name);
            int size = flat.size() / 2;
            Set<Long> distinct = new HashSet<>();
            layout.add(name + "@" + rel(bound) + "x" + size);
            if (bound <= previousBound) {
                fail("%s: bounds ascend and are distinct (bucket %s) %s%n%s", where, name, layout, trace);
            }
            previousBound = bound;
            if ("missing".equals(encoding) || size == 0) {
                fail("%s: bucket %s in the index is empty (no key) %s%n%s", where, name, layout, trace);
            }
            for (int i = 0; i < flat.size(); i += 2) {
                String id = (String) flat.get(i);
                long dueAt = Long.parseLong((String) flat.get(i + 1));
                distinct.add(dueAt);
                if (dueAt < bound || dueAt >= upper) {
                    fail("%s: entry %s at %s of bucket %s lies outside [%s, %s)%n%s", where, id, rel(dueAt), name,
                            rel(bound), upper == Long.MAX_VALUE ? "end" : rel(upper), trace);
                }
                if (entries.put(id, dueAt) != null) {
                    fail("%s: id %s is in the due set twice%n%s", where, id, trace);
                }
            }
            // within one call a bucket may pass 128 entries and come back (a replace takes one out), which leaves it no
            // listpack: a bucket that may have held more than 128 since the last look is not asked to be one
            int before = previousSizes.getOrDefault(name, largestBefore);
            if (size > LISTPACK_ENTRIES || before + addedInStep > LISTPACK_ENTRIES) {
                grownPastListpack.add(name);
            } else if (!grownPastListpack.contains(name) && !COMPACT_ENCODINGS.contains(encoding)) {
                fail("%s: bucket %s of %d entries, never seen past %d, is a %s, no listpack%n%s", where, name, size,
                        LISTPACK_ENTRIES, encoding, trace);
            }
            if (size > BUCKET_SIZE && distinct.size() > 1) {
                mixedGrownBucketsSeen++;
            }
            maxBucketSeen = Math.max(maxBucketSeen, size);
        }
        grownPastListpack.retainAll(names);
        previousSizes.clear();
        largestBefore = 0;
        for (Object bucket : buckets) {
            int size = ((List<Object>) ((List<Object>) bucket).get(3)).size() / 2;
            previousSizes.put((String) ((List<Object>) bucket).get(0), size);
            largestBefore = Math.max(largestBefore, size);
        }
        addedInStep = 0;
        if (buckets.size() != previousBuckets) {
            splitsSeen++;
            previousBuckets = buckets.size();
        }
        if (!orphans.isEmpty()) {
            fail("%s: bucket keys outside the index %s %s%n%s", where, orphans, layout, trace);
        }
        if (!entries.equals(scheduled)) {
            fail(where + ": due set differs from the model:" + difference(entries) + "\nlast operations:\n" + trace);
        }
        for (Object id : stream) {
            readySeen.add((String) id);
        }
        if (!readySeen.equals(readyExpected)) {
            int first = 0;
            while (first < Math.min(readySeen.size(), readyExpected.size())
                    && readySeen.get(first).equals(readyExpected.get(first))) {
                first++;
            }
            fail("%s: ready stream entries differ from entry %d on: Redis %s, model %s%n%s", where, first,
                    readySeen.subList(first, Math.min(readySeen.size(), first + 20)),
                    readyExpected.subList(first, Math.min(readyExpected.size(), first + 20)), trace);
        }
        if (hashLength != stored.size()) {
            fail("%s: %d messages stored, model %d%n%s", where, hashLength, stored.size(), trace);
        }
    }

    private String difference(Map<String, Long> entries) {
        StringBuilder text = new StringBuilder();
        scheduled.forEach((id, dueAt) -> {
            Long actual = entries.get(id);
            if (!dueAt.equals(actual)) {
                text.append("\n  ").append(id).append(": model ").append(rel(dueAt)).append(", Redis ")
                        .append(actual == null ? "absent" : rel(actual));
            }
        });
        entries.forEach((id, dueAt) -> {
            if (!scheduled.containsKey(id)) {
                text.append("\n  ").append(id).append(": model absent, Redis ").append(rel(dueAt));
            }
        });
        return text.toString();
    }

    // ---- helpers

    private void trace(String operation) {
        trace.append("  ").append(operation.length() > 2_000 ? operation.substring(0, 2_000) + "..." : operation)
                .append('\n');
        if (trace.length() > 20_000) {
            trace.delete(0, trace.length() - 10_000);
        }
    }

    private String describe(List<ScheduleRequest> requests) {
        StringBuilder text = new StringBuilder("[");
        for (ScheduleRequest request : requests) {
            if (text.length() > 1) {
                text.append(", ");
            }
            text.append(request.id()).append(' ').append(request.onDuplicate()).append(" at ")
                    .append(rel(request.due().millis()));
        }
        return text.append(']').toString();
    }

    /** A due time relative to base, so that traces read the same for every run. */
    private String rel(long dueAt) {
        if (dueAt >= OVERFLOW) {
            return "overflow";
        }
        if (dueAt < dueLine()) {
            return "past+" + (dueAt - past);
        }
        return "b" + (dueAt - base >= 0 ? "+" : "") + (dueAt - base);
    }

    /** Due times before it are due while a seed runs, those after it are not. */
    private long dueLine() {
        return base - AHEAD / 2;
    }

    private static byte[] envelope(String id) {
        return EnvelopeCodec.encode(new Envelope(id, Map.of()));
    }
}
