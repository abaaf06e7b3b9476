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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicReference;

import io.github.camelredisdelay.internal.ScriptCalls.Durability;
import io.github.camelredisdelay.internal.ShardedQueue;

/**
 * The write probes of one health check ({@code probe.lua} on every shard of each of its queues). They are sent from the
 * connection's own thread, since the client's first call blocks its caller for the whole connect attempt, and at most
 * one is under way: a Redis that does not answer holds a probe's caller no longer than the check waits, and piles up no
 * probes.
 */
final class WriteProbes {

    private final List<ShardedQueue> queues;
    private final Durability durability;
    private final Executor sender;
    private final AtomicReference<Sent> underWay = new AtomicReference<>();

    WriteProbes(List<ShardedQueue> queues, Durability durability, Executor sender) {
        this.queues = queues;
        this.durability = durability;
        this.sender = sender;
    }

    /** @return the probe under way, or a new one sent now when none is */
    Sent current() {
        Sent earlier = underWay.get();
        if (earlier != null && !earlier.all().isDone()) {
            return earlier;
        }
        Sent sent = new Sent(System.nanoTime(), queues, queues.stream().map(queue -> new CompletableFuture<Void>()).toList());
        if (!underWay.compareAndSet(earlier, sent)) {
            return underWay.get();
        }
        try {
            sender.execute(() -> {
                for (int i = 0; i < queues.size(); i++) {
                    CompletableFuture<Void> answer = sent.answers().get(i);
                    try {
                        queues.get(i).pingAsync(durability).whenComplete((done, failure) -> settle(answer, failure));
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
            answer.completeExceptionally(failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause()
                    : failure);
        }
    }

    /**
     * A probe sent at {@code sentNanos} ({@link System#nanoTime()}).
     *
     * @param answers one per queue, in the order of {@code queues}
     */
    record Sent(long sentNanos, List<ShardedQueue> queues, List<CompletableFuture<Void>> answers) {

        /** Completes once every queue answered, failed when one refused. */
        CompletableFuture<Void> all() {
            return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new));
        }

        /** The first queue that has not answered, or refused; {@code null} when all took the write. */
        ShardedQueue firstUnanswered() {
            for (int i = 0; i < answers.size(); i++) {
                CompletableFuture<Void> answer = answers.get(i);
                if (!answer.isDone() || answer.isCompletedExceptionally()) {
                    return queues.get(i);
                }
            }
            return null;
        }

        /** What the queue's Redis refused the write with, or {@code null} when it has not (yet). */
        Throwable refusal(ShardedQueue queue) {
            CompletableFuture<Void> answer = answers.get(queues.indexOf(queue));
            return answer.isCompletedExceptionally() ? answer.handle((done, failure) -> failure).join() : null;
        }
    }
}
