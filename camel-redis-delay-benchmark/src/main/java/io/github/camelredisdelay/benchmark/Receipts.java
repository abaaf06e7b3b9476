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
import java.time.Instant;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Records the deliveries of one measured run: which of the {@code expected} messages (sequence numbers
 * {@code 0..expected-1}) arrived, how late the first delivery of each was, and how many were delivered again. Messages
 * with other sequence numbers (warm-up, backlog) are only counted.
 */
final class Receipts implements MessageSink {

    private static final long NOT_RECEIVED = Long.MIN_VALUE;

    private final int expected;
    private final AtomicLongArray latenessMicros;
    private final CountDownLatch remaining;
    private final AtomicInteger duplicates = new AtomicInteger();
    private final AtomicInteger others = new AtomicInteger();
    /** {@link System#nanoTime()} of the first delivery of an expected message; {@link #NOT_RECEIVED} before it. */
    private final AtomicLong firstNanos = new AtomicLong(NOT_RECEIVED);

    Receipts(int expected) {
        this.expected = expected;
        this.latenessMicros = new AtomicLongArray(expected);
        for (int seq = 0; seq < expected; seq++) {
            latenessMicros.set(seq, NOT_RECEIVED);
        }
        this.remaining = new CountDownLatch(expected);
    }

    @Override
    public void received(String body, long intendedDueMillis) {
        long nowMicros = epochMicros();
        int seq = Payload.seq(body);
        if (seq < 0 || seq >= expected) {
            others.incrementAndGet();
        } else if (latenessMicros.compareAndSet(seq, NOT_RECEIVED, nowMicros - intendedDueMillis * 1000)) {
            firstNanos.compareAndSet(NOT_RECEIVED, System.nanoTime());
            remaining.countDown();
        } else {
            duplicates.incrementAndGet();
        }
    }

    /** Waits until every expected message arrived or {@code bound} passed; true when all arrived. */
    boolean awaitAll(Duration bound) {
        try {
            return remaining.await(Math.max(0, bound.toMillis()), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    int received() {
        return (int) (expected - remaining.getCount());
    }

    /** Nanoseconds from {@code startNanos} ({@link System#nanoTime()}) to the first delivery; -1 when none came. */
    long firstAfterNanos(long startNanos) {
        long first = firstNanos.get();
        return first == NOT_RECEIVED ? -1 : first - startNanos;
    }

    int expected() {
        return expected;
    }

    int duplicates() {
        return duplicates.get();
    }

    int others() {
        return others.get();
    }

    /** Lateness of the messages received so far. */
    Percentiles lateness() {
        return Percentiles.ofMicros(sortedLatenessMicros());
    }

    /** The lateness of each message received so far, µs, lowest first. */
    long[] sortedLatenessMicros() {
        long[] sample = new long[expected];
        int filled = 0;
        for (int seq = 0; seq < expected; seq++) {
            long lateness = latenessMicros.get(seq);
            if (lateness != NOT_RECEIVED) {
                sample[filled++] = lateness;
            }
        }
        long[] sorted = Arrays.copyOf(sample, filled);
        Arrays.sort(sorted);
        return sorted;
    }

    /** This machine's clock in µs; a due time of epoch ms {@code t} means "not before {@code t}.000". */
    private static long epochMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1000;
    }
}
