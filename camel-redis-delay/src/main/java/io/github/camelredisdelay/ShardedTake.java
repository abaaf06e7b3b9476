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
package io.github.camelredisdelay;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import io.github.camelredisdelay.internal.Delivery;
import org.apache.camel.Exchange;

/**
 * One message of a sharded queue for a receiver ({@link RedisDelayPollingConsumer}). The shards are asked without
 * waiting in Redis, each take beginning with the next shard in turn (so that a backlog on one shard does not hold back
 * the others'), each shard's answer waited for a moment only ({@link ShardReads}), within the take's round: the shards
 * not asked by then are left to the next take, unless the round is the first take's of a receive shorter than one
 * answer wait (a {@code receiveNoWait}, say): then they are asked all at once ({@link #takeOfAny}), so that a shard
 * which does not answer holds it up at most twice an answer wait and hides no other shard's message. A failed read
 * fails the take only when no shard answered.
 */
final class ShardedTake {

    /** The reads of each shard, shard 0 first. */
    private final List<ShardReads> reads;
    private final OneShardTake oneShardTake;
    /** Counts the takes: each asks first the shard after the one the previous asked first. */
    private final AtomicInteger takes = new AtomicInteger();

    ShardedTake(List<ShardReads> reads, OneShardTake oneShardTake) {
        this.reads = reads;
        this.oneShardTake = oneShardTake;
    }

    /**
     * One message, or {@code null} when no shard brought one within {@code round}, for a receive with {@code leftMs}
     * left; {@code firstTake} when the take is a receive's first, whose round is at least one answer wait.
     *
     * @throws RuntimeException a shard's failed read, when no shard answered
     */
    Exchange take(boolean firstTake, long leftMs, Exchange taker, TakeRound round) {
        Answers answers = new Answers();
        int first = Math.floorMod(takes.getAndIncrement(), reads.size());
        for (int i = 0; i < reads.size(); i++) {
            if (round.over()) {
                if (firstTake && leftMs < round.ms()) {
                    // a round of one answer wait, spent on a shard that did not answer: the others are asked too
                    Exchange exchange = takeOfAny(first + i, reads.size() - i, leftMs, taker, answers);
                    if (exchange != null) {
                        return exchange;
                    }
                }
                break;
            }
            ShardReads shard = reads.get((first + i) % reads.size());
            try {
                Exchange exchange = oneShardTake.takeOf(shard.deliverer(),
                        firstRead -> answers.noted(shard.read(leftMs - round.elapsedMs(), round.leftMs())), taker,
                        round);
                if (exchange != null) {
                    return exchange;
                }
            } catch (RuntimeException e) {
                answers.failed(e);
            }
        }
        answers.throwWhenNoneAnswered();
        return null;
    }

    /**
     * The first message, in turn, of the {@code count} shards from {@code from} on, asked all at once, each answer
     * waited for within the shard's answer wait since it was asked: what the others bring goes back to the queue
     * ({@link ShardReads.Read#handBack}). So a receive shorter than an answer wait asks every shard once, although one
     * did not answer in time.
     */
    private Exchange takeOfAny(int from, int count, long leftMs, Exchange taker, Answers answers) {
        List<ShardReads.Read> sent = IntStream.range(from, from + count)
                .mapToObj(i -> reads.get(i % reads.size()).send()).toList();
        Exchange exchange = null;
        for (ShardReads.Read read : sent) {
            if (read == null) {
                continue;
            }
            if (exchange != null) {
                read.handBack();
                continue;
            }
            try {
                List<Delivery> batch = answers.noted(read.await(leftMs, Long.MAX_VALUE));
                exchange = batch == null ? null : oneShardTake.toExchange(read.deliverer(), batch, taker);
            } catch (RuntimeException e) {
                answers.failed(e);
            }
        }
        return exchange;
    }

    /** Whether any shard of a take answered, and the first failure of a shard's read. */
    private static final class Answers {

        private boolean answered;
        private RuntimeException failure;

        /** Notes whether the shard answered ({@code batch} not {@code null}); returns {@code batch}. */
        List<Delivery> noted(List<Delivery> batch) {
            answered |= batch != null;
            return batch;
        }

        void failed(RuntimeException e) {
            failure = failure == null ? e : failure;
        }

        /** A failed read fails the take only when no shard answered. */
        void throwWhenNoneAnswered() {
            if (!answered && failure != null) {
                throw failure;
            }
        }
    }
}
