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

import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * What an operator does with a queue and its dead-letter queue: look at one message by id, remove every message, move
 * dead letters back ({@link Redrive}).
 */
public final class QueueAdmin {

    /** The most messages one {@code purge.lua} call removes from each of the due set and the ready stream. */
    public static final int PURGE_CHUNK = 500;
    /**
     * How many times as many of the newest dead letters {@link #newestDeadLetters} reads as it lists, to find this
     * queue's among others' of a shared dead-letter queue.
     */
    private static final int DEAD_LETTERS_LOOKED_AT = 20;

    private final ShardedQueue queue;
    private final Supplier<ShardedQueue> deadLetterQueue;
    private final BooleanSupplier stopped;

    /**
     * @param deadLetterQueue the dead-letter queue, looked up with each operation (an endpoint that names none uses the
     *                        one the queue's statistics count, which a consumer's endpoint may name after it started)
     * @param stopped         whether the endpoint (or its CamelContext) stopped: a redrive waiting for its turn then
     *                        fails
     */
    public QueueAdmin(ShardedQueue queue, Supplier<ShardedQueue> deadLetterQueue, BooleanSupplier stopped) {
        this.queue = queue;
        this.deadLetterQueue = deadLetterQueue;
        this.stopped = stopped;
    }

    /**
     * The message with this id in the queue, or else in its dead-letter queue (state {@code dead}).
     *
     * @return the message, or {@code null} when neither holds one with this id
     */
    public InspectedMessage peek(String id) {
        return queue.peek(id, deadLetterQueue.get());
    }

    /** At most {@code limit} messages of the queue, scheduled, ready and in flight, earliest due time first. */
    public List<InspectedMessage> browse(int limit) {
        return queue.browse(limit);
    }

    /** All messages of the queue, whatever their state: one {@code HLEN} per shard. */
    public long size() {
        return queue.size();
    }

    /**
     * Of each state (in flight, ready, scheduled), at most {@code limit} messages per shard, earliest due time first.
     */
    public List<InspectedMessage> browseEachState(int limit) {
        return queue.browseEachState(limit);
    }

    /**
     * At most {@code limit} of the newest dead letters of this queue, newest first: of a dead-letter queue that several
     * queues share, those this queue put there ({@link DeadLetters#cameFrom}), as its peek and redrive take them, found
     * among the {@value #DEAD_LETTERS_LOOKED_AT} times as many newest of them all; with how many were looked at of how
     * many the dead-letter queue holds (older ones of this queue are not looked for).
     */
    public NewestDeadLetters newestDeadLetters(int limit) {
        ShardedQueue deadLetters = deadLetterQueue.get();
        List<InspectedMessage> newest = deadLetters.newest(limit * DEAD_LETTERS_LOOKED_AT);
        List<InspectedMessage> listed = newest.stream()
                .filter(deadLetter -> DeadLetters.cameFrom(deadLetter.envelope(), queue.name())).limit(limit).toList();
        return new NewestDeadLetters(
                listed, newest.size(), Math.max(deadLetters.size(), newest.size()),
                deadLetters.name());
    }

    /**
     * Removes every message of the queue, whatever its state, {@link #PURGE_CHUNK} at a time.
     *
     * @return the messages removed
     */
    public long purge() {
        return queue.purge(PURGE_CHUNK);
    }

    /**
     * Moves at most {@code limit} dead letters back to the queue, due at {@code due}, with a fresh delivery count.
     *
     * @return the number moved
     */
    public long redrive(long limit, DueTime due) {
        return new Redrive(deadLetterQueue.get(), queue, stopped).some(limit, due);
    }

    /**
     * Moves the dead letter with this id back to the queue, due at {@code due}, with a fresh delivery count.
     *
     * @return 1 when it was moved, 0 when the dead-letter queue holds no such message ready to move
     */
    public long redrive(String messageId, DueTime due) {
        return new Redrive(deadLetterQueue.get(), queue, stopped).one(messageId, due) ? 1 : 0;
    }
}
