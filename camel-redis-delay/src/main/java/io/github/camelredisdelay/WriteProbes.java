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

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import io.github.camelredisdelay.internal.Futures;
import io.github.camelredisdelay.internal.QueueShard;
import io.github.camelredisdelay.internal.ScriptCalls.Durability;
import io.github.camelredisdelay.internal.ShardedQueue;

/**
 * The write probes of one health check ({@code probe.lua} on every shard of each of its queues). They are sent from the
 * connection's own thread, since the client's first call blocks its caller for the whole connect attempt, and at most
 * one is under way: a Redis that does not answer holds a probe's caller no longer than the check waits, and piles up no
 * probes. The check that sends its own sends those of the other checks of its {@link ProbeRound} too.
 */
final class WriteProbes {

    /** Every shard of each queue: shards may live on different masters. */
    private final List<QueueShard> shards;
    private final Durability durability;
    private final Executor sender;
    private final long waitNanos;
    private final ProbeRound round;
    private final AtomicReference<Sent> last = new AtomicReference<>();

    /**
     * @param wait how long the check waits for an answer; a write another check sent for it within that time stands for
     *             its own
     */
    WriteProbes(List<ShardedQueue> queues, Durability durability, Executor sender, Duration wait, ProbeRound round) {
        this.shards = queues.stream().flatMap(queue -> queue.all().stream()).toList();
        this.durability = durability;
        this.sender = sender;
        this.waitNanos = wait.toNanos();
        this.round = round;
    }

    /**
     * @return the probe the check waits for: the one under way, else the one another check sent for it within its wait
     *         that it has not waited for yet, else one sent now, with those of the other checks of the round
     */
    Sent current() {
        Sent earlier = last.get();
        if (earlier != null) {
            // claimed whatever follows: a call of the check has now had it
            boolean sentAhead = earlier.claim();
            if (!earlier.answered() || sentAhead && earlier.sentWithin(waitNanos)) {
                return earlier;
            }
        }
        Sent sent = send(earlier, false);
        round.sendOthers(this);
        return sent;
    }

    /**
     * Sends a probe for the check's next call, unless one is still under way or one sent for it within its wait has not
     * been waited for yet. A probe the check already waited for does not count, however recent: its next call would
     * send one of its own and wait for it, a second wait within the same probe.
     */
    void sendAhead() {
        Sent earlier = last.get();
        if (earlier == null || earlier.answered() && !(earlier.unclaimed().get() && earlier.sentWithin(waitNanos))) {
            send(earlier, true);
        }
    }

    private Sent send(Sent earlier, boolean ahead) {
        Sent sent = new Sent(
                System.nanoTime(), shards, shards.stream().map(shard -> new CompletableFuture<Void>()).toList(),
                new AtomicBoolean(ahead));
        if (!last.compareAndSet(earlier, sent)) {
            return last.get();
        }
        try {
            sender.execute(() -> {
                for (int i = 0; i < shards.size(); i++) {
                    CompletableFuture<Void> answer = sent.answers().get(i);
                    try {
                        shards.get(i).probeWriteAsync(durability).whenComplete((done, failure) -> settle(answer, failure));
                    } catch (RuntimeException e) {
                        answer.completeExceptionally(e);
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            sent.answers().forEach(answer -> answer.completeExceptionally(e));
        }
        return sent;
    }

    private static void settle(CompletableFuture<Void> answer, Throwable failure) {
        if (failure == null) {
            answer.complete(null);
        } else {
            answer.completeExceptionally(Futures.unwrap(failure));
        }
    }

    /**
     * A probe sent at {@code sentNanos} ({@link System#nanoTime()}).
     *
     * @param answers   one per shard, in the order of {@code shards}
     * @param unclaimed sent by another check, and not yet waited for by this one
     */
    record Sent(long sentNanos, List<QueueShard> shards, List<CompletableFuture<Void>> answers,
            AtomicBoolean unclaimed) {

        /** @return whether it was sent by another check and this is the first wait for it */
        boolean claim() {
            return unclaimed.compareAndSet(true, false);
        }

        /** Whether every shard answered, or refused. */
        boolean answered() {
            return answers.stream().allMatch(CompletableFuture::isDone);
        }

        /** Whether it was sent less than {@code nanos} ago. */
        boolean sentWithin(long nanos) {
            return System.nanoTime() - sentNanos < nanos;
        }

        /** Completes once every shard answered, failed when one refused. */
        CompletableFuture<Void> all() {
            return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new));
        }

        /** The first shard that has not answered, or refused; {@code null} when all took the write. */
        QueueShard firstUnanswered() {
            for (int i = 0; i < answers.size(); i++) {
                CompletableFuture<Void> answer = answers.get(i);
                if (!answer.isDone() || answer.isCompletedExceptionally()) {
                    return shards.get(i);
                }
            }
            return null;
        }

        /** What the shard's Redis refused the write with, or {@code null} when it has not (yet). */
        Throwable refusal(QueueShard shard) {
            CompletableFuture<Void> answer = answers.get(shards.indexOf(shard));
            return answer.isCompletedExceptionally() ? answer.handle((done, failure) -> failure).join() : null;
        }
    }
}
