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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntConsumer;

/**
 * Runs {@code count} sends on a few threads, optionally paced to a fixed rate (send {@code i} is not started before
 * {@code start + i / rate}), and bounded in time: sends not started within the bound are skipped.
 */
final class Senders {

    private Senders() {
    }

    /**
     * @param sent         sends that returned normally
     * @param failed       sends that threw
     * @param elapsedNanos from the first send to the last one's return
     * @param firstFailure the first exception, if any
     */
    record Outcome(int sent, int failed, long elapsedNanos, Throwable firstFailure) {

        double perSecond() {
            return Numbers.perSecond(sent, elapsedNanos);
        }
    }

    static Outcome run(String name, int count, int threads, double perSecond, Duration bound, IntConsumer send) {
        AtomicInteger next = new AtomicInteger();
        AtomicInteger sent = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        AtomicReference<Throwable> firstFailure = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(threads);
        long start = System.nanoTime();
        long deadline = start + bound.toNanos();
        double nanosPerSend = perSecond > 0 ? 1e9 / perSecond : 0;
        List<Thread> workers = new ArrayList<>(threads);
        for (int t = 0; t < threads; t++) {
            Thread worker = new Thread(() -> {
                try {
                    for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
                        long at = start + (long) (i * nanosPerSend);
                        for (long wait = at - System.nanoTime(); wait > 0; wait = at - System.nanoTime()) {
                            LockSupport.parkNanos(wait);
                        }
                        if (System.nanoTime() - deadline > 0) {
                            break;
                        }
                        try {
                            send.accept(i);
                            sent.incrementAndGet();
                        } catch (RuntimeException e) {
                            failed.incrementAndGet();
                            firstFailure.compareAndSet(null, e);
                        }
                    }
                } finally {
                    done.countDown();
                }
            }, name + "-" + t);
            worker.setDaemon(true);
            workers.add(worker);
        }
        workers.forEach(Thread::start);
        awaitUninterruptibly(name, done, bound.plusSeconds(30));
        long elapsed = System.nanoTime() - start;
        if (firstFailure.get() != null) {
            Bench.log("%s: %d of %d sends failed, first: %.300s", name, failed.get(), count, firstFailure.get());
        }
        return new Outcome(sent.get(), failed.get(), elapsed, firstFailure.get());
    }

    private static void awaitUninterruptibly(String name, CountDownLatch latch, Duration bound) {
        try {
            if (!latch.await(bound.toMillis(), TimeUnit.MILLISECONDS)) {
                Bench.log("%s: senders still blocked after %d s; giving up on them", name, bound.toSeconds());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
