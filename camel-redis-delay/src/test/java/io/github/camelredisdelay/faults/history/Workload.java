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
package io.github.camelredisdelay.faults.history;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.github.camelredisdelay.RedisDelayConstants;
import io.github.camelredisdelay.faults.history.Operation.Kind;
import org.apache.camel.ProducerTemplate;

/**
 * The producers of a round: threads that send random operations drawn from the round's seed, through either node, until
 * the run ends. Schedules keep, replace or fail on duplicates, or take a generated id (some of these re-delay
 * themselves from their deliveries), with a delay or a due time of 0-2 s; some are batches of 1-4 generated ids
 * ({@link BatchSchedule}); cancels, reschedules and peeks go to the thread's own ids or to ids generated for it. Each
 * id belongs to one thread, so the operations on an id are sequential, and each goes to the thread's log in
 * {@link HistoryRecorder}.
 */
public final class Workload {

    private static final int IDS_PER_THREAD = 5;
    private static final int MAX_PACE_MILLIS = 60;
    private static final int MAX_OPERATIONS_PER_THREAD = 100_000;

    private final long seed;
    private final HistoryQueue queue;
    private final AtomicLong sequence;
    private final HistoryRecorder recorder;

    /** @param sequence the round's body numbers, shared with the re-delays */
    Workload(long seed, HistoryQueue queue, AtomicLong sequence, HistoryRecorder recorder) {
        this.seed = seed;
        this.queue = queue;
        this.sequence = sequence;
        this.recorder = recorder;
    }

    /** Runs the threads until {@code untilMillis} and waits for them. */
    void run(ProducerTemplate nodeA, ProducerTemplate nodeB, long untilMillis) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < recorder.threads(); t++) {
            int thread = t;
            Random random = new Random(new SplittableRandom(seed * 31 + t).nextLong());
            threads.add(new Thread(
                    () -> produce(thread, random, new ProducerTemplate[] { nodeA, nodeB }, untilMillis),
                    "history-producer-" + t));
        }
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
            thread.join();
        }
    }

    private void produce(int thread, Random random, ProducerTemplate[] nodes, long untilMillis) {
        List<String> ownIds = new ArrayList<>();
        for (int i = 0; i < IDS_PER_THREAD; i++) {
            ownIds.add("t" + thread + "-k" + i);
        }
        List<String> generatedIds = new ArrayList<>();
        List<Operation> log = recorder.threadLog(thread);
        try {
            for (int n = 0; n < MAX_OPERATIONS_PER_THREAD && System.currentTimeMillis() < untilMillis; n++) {
                // the producers' pace, part of the workload
                TimeUnit.MILLISECONDS.sleep(random.nextInt(MAX_PACE_MILLIS));
                int nodeIndex = random.nextInt(2);
                String node = nodeIndex == 0 ? "A" : "B";
                List<Operation> sent;
                if (random.nextInt(100) < BatchSchedule.PERCENT) {
                    sent = BatchSchedule.send(nodes[nodeIndex], queue, node, random, sequence, "t" + thread);
                } else {
                    Operation op = draw(random, thread, node, ownIds, generatedIds);
                    send(nodes[nodeIndex], op);
                    sent = List.of(op);
                }
                for (Operation op : sent) {
                    if (op.kind == Kind.SCHEDULE_GENERATED && op.id != null
                            && ScriptedBody.parse(op.body).redelays() == 0) {
                        generatedIds.add(op.id);
                    }
                    log.add(op);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Operation draw(Random random, int thread, String node, List<String> ownIds, List<String> generatedIds) {
        int roll = random.nextInt(100);
        Kind kind = roll < 25 ? Kind.SCHEDULE_KEEP
                : roll < 37 ? Kind.SCHEDULE_REPLACE
                : roll < 42 ? Kind.SCHEDULE_FAIL
                : roll < 55 ? Kind.SCHEDULE_GENERATED
                : roll < 74 ? Kind.CANCEL : roll < 93 ? Kind.RESCHEDULE : Kind.PEEK;
        Operation op = new Operation(kind, node);
        op.delay = random.nextInt(10) == 0 ? 0 : random.nextInt(2001);
        op.dueAt = random.nextInt(5) == 0;
        boolean byId = kind == Kind.CANCEL || kind == Kind.RESCHEDULE || kind == Kind.PEEK;
        if (kind == Kind.SCHEDULE_GENERATED) {
            op.id = null;
        } else if (byId && !generatedIds.isEmpty() && random.nextInt(3) == 0) {
            op.id = generatedIds.get(random.nextInt(generatedIds.size()));
        } else {
            op.id = ownIds.get(random.nextInt(ownIds.size()));
        }
        // a generated id is never cancelled, rescheduled or peeked when it re-delays itself: its versions stay the route's
        int redelays = kind == Kind.SCHEDULE_GENERATED && random.nextInt(10) < 3 ? 1 + random.nextInt(3) : 0;
        op.body = ScriptedBody.drawn(random, sequence.incrementAndGet(), "t" + thread, redelays).text();
        return op;
    }

    private void send(ProducerTemplate producer, Operation op) {
        String uri = queue.producerUri(switch (op.kind) {
            case SCHEDULE_KEEP, SCHEDULE_GENERATED -> "onDuplicate=keep";
            case SCHEDULE_REPLACE -> "onDuplicate=replace";
            case SCHEDULE_FAIL -> "onDuplicate=fail";
            case CANCEL -> "operation=cancel";
            case RESCHEDULE -> "operation=reschedule";
            case PEEK -> "operation=peek";
            case REDELAY, REDRIVE -> throw new IllegalArgumentException("Routes re-delay, the Redriver redrives");
        });
        op.send(producer, uri, exchange -> {
            if (op.id != null) {
                exchange.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, op.id);
            }
            if (op.kind == Kind.PEEK || op.kind == Kind.CANCEL) {
                return;
            }
            if (op.dueAt) {
                exchange.getMessage().setHeader(RedisDelayConstants.DUE_AT, op.start + op.delay);
            } else {
                exchange.getMessage().setHeader(RedisDelayConstants.DELAY, op.delay);
            }
            if (op.kind != Kind.RESCHEDULE) {
                exchange.getMessage().setBody(op.body);
            }
        });
    }
}
