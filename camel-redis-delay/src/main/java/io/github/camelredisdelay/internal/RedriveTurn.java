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

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.redisson.client.RedisException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The turn of a redrive (of all, with a limit or by id) among the redrives from its dead-letter queue, which take
 * theirs one at a time ({@code redrive-turn.lua}): each puts back on schedule the dead letters it lists ready before
 * their due time and does not move, which would take from another queue's redrive running at once those that redrive
 * made ready to move. Taken before the redrive makes any ready, waiting while another holds it; moved on as the redrive
 * goes ({@link #keep}); given up at its end. A redrive that died holds the next one up for {@link #LASTS_MS} at most;
 * one whose single step outlasts its turn (moved on only between steps, once a third of it passed) may see another
 * start beside it.
 */
final class RedriveTurn implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RedriveTurn.class);

    /** How long a turn lasts unless its holder moves it on. */
    static final long LASTS_MS = 30_000;
    /** The longest a redrive waiting for its turn sleeps before it asks again. */
    private static final long ASK_AFTER_MS = 200;

    private final ShardedQueue deadLetterQueue;
    private final String token;
    private final String target;
    private long movedOnAt = System.nanoTime();
    private boolean lost;

    private RedriveTurn(ShardedQueue deadLetterQueue, String token, String target) {
        this.deadLetterQueue = deadLetterQueue;
        this.token = token;
        this.target = target;
    }

    /**
     * Takes the turn of the redrive named by {@code token} into queue {@code target}, once no other redrive from
     * {@code deadLetterQueue} holds it.
     *
     * @param  stopped               whether what runs the redrive (its endpoint, its CamelContext) stopped: the wait
     *                               then ends
     * @throws IllegalStateException when it stopped while the redrive waited; it moved nothing
     */
    static RedriveTurn take(ShardedQueue deadLetterQueue, String token, String target, BooleanSupplier stopped) {
        QueueShard shard = deadLetterQueue.first();
        boolean told = false;
        for (long wait = shard.inspection().redriveTurn(token, LASTS_MS); wait > 0; wait
                = shard.inspection().redriveTurn(token, LASTS_MS)) {
            if (stopped.getAsBoolean()) {
                throw new IllegalStateException(
                        "Redrive into queue " + target + " was stopped while it waited for the turn another redrive from "
                                                + "dead-letter queue " + deadLetterQueue.name()
                                                + " holds (its endpoint or CamelContext stopped); it moved nothing");
            }
            if (!told) {
                LOG.info("Redrive into queue {} waits for another redrive from dead-letter queue {} to end: redrives from one"
                         + " dead-letter queue run one at a time",
                        target, deadLetterQueue.name());
                told = true;
            }
            try {
                TimeUnit.MILLISECONDS.sleep(Math.min(wait, ASK_AFTER_MS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RedisException(
                        "Interrupted while redrive into queue " + target + " waited for another redrive from dead-letter queue "
                                         + deadLetterQueue.name() + " to end; it moved nothing",
                        e);
            }
        }
        return new RedriveTurn(deadLetterQueue, token, target);
    }

    /**
     * Moves the turn on once a third of it has passed. One that lapsed meanwhile and another redrive took is not taken
     * back: the redrive goes on beside the other, with a warning.
     */
    void keep() {
        if (System.nanoTime() - movedOnAt > TimeUnit.MILLISECONDS.toNanos(LASTS_MS / 3)) {
            if (deadLetterQueue.first().inspection().redriveTurn(token, LASTS_MS) > 0 && !lost) {
                lost = true;
                LOG.warn("Redrive into queue {} lost its turn among the redrives from dead-letter queue {} (a step outlasted "
                         + "the turn, which lapses {} s after it was last moved on) to another, which runs beside it: either "
                         + "may leave scheduled dead letters of the other's queue on schedule; redrive again once both ended",
                        target, deadLetterQueue.name(), LASTS_MS / 1000);
            }
            movedOnAt = System.nanoTime();
        }
    }

    /** Gives the turn up; when that fails, the turn lapses by itself, and the redrive's outcome stands. */
    @Override
    public void close() {
        try {
            deadLetterQueue.first().inspection().redriveTurn(token, 0);
        } catch (RuntimeException e) {
            LOG.warn("Redrive from dead-letter queue {} could not give up its turn ({}): the next redrive from it waits until "
                     + "the turn lapses, within {} s",
                    deadLetterQueue.name(), e.getMessage(), LASTS_MS / 1000);
        }
    }
}
