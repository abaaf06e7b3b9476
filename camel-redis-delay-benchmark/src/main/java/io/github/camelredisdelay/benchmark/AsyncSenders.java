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
package io.github.camelredisdelay.benchmark;

import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;

/**
 * Runs {@code count} asynchronous sends from a few threads with at most {@code inFlight} of them unfinished at any
 * time, bounded in time: sends not started within the bound are skipped, and sends unfinished at its end count as
 * failed.
 */
final class AsyncSenders {

    private AsyncSenders() {
    }

    /**
     * @return {@link Senders.Outcome#sent()} counts the sends that completed normally, the elapsed time runs from the
     *         first send to the last completion
     */
    static Senders.Outcome run(
            String name, int count, int threads, int inFlight, Duration bound,
            IntFunction<CompletionStage<?>> send) {
        Semaphore permits = new Semaphore(inFlight);
        AtomicInteger completed = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        AtomicReference<Throwable> firstFailure = new AtomicReference<>();
        long start = System.nanoTime();
        long deadline = start + bound.toNanos();
        Senders.Outcome issued = Senders.run(name, count, threads, 0, bound, i -> {
            acquire(permits, 1, deadline);
            try {
                send.apply(i).whenComplete((ignored, error) -> {
                    if (error == null) {
                        completed.incrementAndGet();
                    } else {
                        failed.incrementAndGet();
                        firstFailure.compareAndSet(null, error);
                    }
                    permits.release();
                });
            } catch (RuntimeException e) {
                permits.release();
                throw e;
            }
        });
        boolean drained = tryAcquire(permits, inFlight, deadline);
        long elapsed = System.nanoTime() - start;
        int unfinished = issued.sent() - completed.get() - failed.get();
        if (!drained || completed.get() < count) {
            Bench.log("%s: %d of %d sends completed within %d s, %d failed, %d unfinished; first failure: %.300s",
                    name, completed.get(), count, bound.toSeconds(), failed.get(), unfinished, firstFailure.get());
        }
        firstFailure.compareAndSet(null, issued.firstFailure());
        return new Senders.Outcome(
                completed.get(), issued.failed() + failed.get() + unfinished, elapsed,
                firstFailure.get());
    }

    private static void acquire(Semaphore permits, int count, long deadline) {
        if (!tryAcquire(permits, count, deadline)) {
            throw new IllegalStateException("no send finished before the bound");
        }
    }

    private static boolean tryAcquire(Semaphore permits, int count, long deadline) {
        try {
            return permits.tryAcquire(count, Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
