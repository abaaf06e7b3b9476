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

import java.util.Arrays;

/**
 * Delivery lateness (delivery time minus due time, both on Redis' clock) of the last {@value #SIZE} deliveries.
 */
public final class LatenessWindow {

    /** Deliveries the window holds. */
    public static final int SIZE = 1024;

    /**
     * Percentiles of the window, in ms; all 0 when it is empty.
     *
     * @param samples deliveries in the window
     */
    public record Summary(int samples, long p50, long p99, long max) {
    }

    private final long[] samples = new long[SIZE];
    private int next;
    private int size;

    public synchronized void record(long latenessMs) {
        samples[next] = latenessMs;
        next = (next + 1) % SIZE;
        size = Math.min(size + 1, SIZE);
    }

    public Summary summary() {
        long[] sorted;
        synchronized (this) {
            sorted = Arrays.copyOf(samples, size);
        }
        if (sorted.length == 0) {
            return new Summary(0, 0, 0, 0);
        }
        Arrays.sort(sorted);
        return new Summary(sorted.length, percentile(sorted, 50), percentile(sorted, 99), sorted[sorted.length - 1]);
    }

    private static long percentile(long[] sorted, int percent) {
        int rank = (int) Math.ceil(percent / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, rank)];
    }
}
