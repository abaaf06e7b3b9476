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

import java.util.Random;
import java.util.SplittableRandom;
import java.util.function.Consumer;

import io.github.camelredisdelay.RedisDelayConstants;
import io.github.camelredisdelay.faults.history.Operation.Kind;
import org.apache.camel.ProducerTemplate;

/**
 * The redrives of a round: a thread of their own, paced by the round's seed, sends one every 0.3-1 s through either
 * node until the run ends, or, while none has moved a dead letter yet, up to 40 s longer (slow consumers dead-letter
 * late, in what would be the drain, which then takes that much less): of all the dead letters, of at most 1-3
 * ({@code CamelRedisDelayRedriveLimit}), or of one id a node's route saw dead-lettered ({@link DeadLetteredIds}), due
 * at once; each goes to the recorder with the number it answered. The chaos stops the dead-letter queue's consumer
 * meanwhile, so that dead letters wait for them.
 */
final class Redriver {

    private static final int MIN_PACE_MILLIS = 300;
    private static final int MORE_PACE_MILLIS = 700;
    private static final int MAX_LIMIT = 3;
    private static final int MAX_REDRIVES = 1000;
    private static final long MOST_EXTRA_MILLIS = 40_000;

    private final Random random;
    private final HistoryQueue queue;
    private final DeadLetteredIds deadLettered;
    private final Consumer<Operation> recorder;
    private Thread thread;
    private boolean movedAny;

    Redriver(long seed, HistoryQueue queue, DeadLetteredIds deadLettered, Consumer<Operation> recorder) {
        this.random = new Random(new SplittableRandom(seed * 31 - 3).nextLong());
        this.queue = queue;
        this.deadLettered = deadLettered;
        this.recorder = recorder;
    }

    /** Starts redriving through either node until {@code untilMillis}. */
    void start(ProducerTemplate nodeA, ProducerTemplate nodeB, long untilMillis) {
        ProducerTemplate[] nodes = { nodeA, nodeB };
        thread = new Thread(() -> redrive(nodes, untilMillis), "history-redriver");
        thread.start();
    }

    /** Whether it still redrives: until the run ends, or later while no redrive moved a dead letter yet. */
    boolean running() {
        return thread.isAlive();
    }

    private void redrive(ProducerTemplate[] nodes, long untilMillis) {
        for (int n = 0; n < MAX_REDRIVES && goesOn(untilMillis); n++) {
            if (!Chaos.pause(MIN_PACE_MILLIS + random.nextInt(MORE_PACE_MILLIS))) {
                return;
            }
            int node = random.nextInt(2);
            Operation op = new Operation(Kind.REDRIVE, node == 0 ? "A" : "B");
            int roll = random.nextInt(3);
            if (roll == 1) {
                op.redriveLimit = 1L + random.nextInt(MAX_LIMIT);
            } else if (roll == 2) {
                op.id = deadLettered.recent(random);
            }
            send(nodes[node], op);
            recorder.accept(op);
            movedAny |= op.movedAny();
        }
    }

    private boolean goesOn(long untilMillis) {
        long now = System.currentTimeMillis();
        return now < untilMillis || !movedAny && now < untilMillis + MOST_EXTRA_MILLIS;
    }

    /** Waits for the last redrive. */
    void join() throws InterruptedException {
        thread.join();
    }

    private void send(ProducerTemplate producer, Operation op) {
        op.send(producer, queue.redriveUri(), exchange -> {
            if (op.id != null) {
                exchange.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, op.id);
            }
            if (op.redriveLimit != null) {
                exchange.getMessage().setHeader(RedisDelayConstants.REDRIVE_LIMIT, op.redriveLimit);
            }
        });
    }
}
