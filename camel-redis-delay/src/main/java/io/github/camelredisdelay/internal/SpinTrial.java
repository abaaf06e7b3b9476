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
 * Tells whether a caller waiting alone for its reply should spin or park, by timing both on this machine. Spinning
 * saves the wake-up of a parked thread where that wake-up is slow and a core stays free for Redis and Redisson's I/O
 * thread meanwhile; where the scheduler queues Redis or the I/O thread behind the spinner instead (seen on a
 * virtualised 2-core machine), it makes the wait longer and burns a core (design notes 13). So the trial alternates:
 * {@value #SAMPLES} waits spinning and {@value #SAMPLES} parked, interleaved so both see the same conditions, then the
 * next waits take the way whose median was shorter, then the trial runs again. Those are {@value #CHOSEN_WAITS} waits
 * after a trial that changed the way, and twice as many as last time, up to {@value #MOST_CHOSEN_WAITS}, after one that
 * kept it, so a machine where one way is plainly faster spends few waits on the other. Spinning wins only when its
 * median is shorter by at least {@value #REQUIRED_GAIN_PERCENT}%, since it costs a core while it lasts.
 * <p>
 * Not thread-safe: {@link ReplySpin} lets one caller at a time use it.
 */
final class SpinTrial {

    /** Waits timed each way per trial. */
    static final int SAMPLES = 64;
    /** Waits that take the chosen way after a trial that changed it, before the next trial. */
    static final int CHOSEN_WAITS = 14 * 2 * SAMPLES;
    /** The most waits between two trials. */
    static final int MOST_CHOSEN_WAITS = 16 * CHOSEN_WAITS;
    /** How much shorter the median wait spinning must be than parked for spinning to be chosen. */
    static final int REQUIRED_GAIN_PERCENT = 5;

    private final long[] spun = new long[SAMPLES];
    private final long[] parked = new long[SAMPLES];
    private int spunCount;
    private int parkedCount;
    private boolean spinChosen;
    /** How many waits took the chosen way after the last trial. */
    private int chosenWaits;
    private int chosenWaitsLeft;

    /** Whether the next wait spins: the way a trial chose, or during a trial, each way in turn. */
    boolean spinNext() {
        return chosenWaitsLeft > 0 ? spinChosen : spunCount <= parkedCount;
    }

    /** Records how long a wait took, from the request sent to the reply seen, and whether it spun. */
    void record(boolean spin, long nanos) {
        if (chosenWaitsLeft > 0) {
            chosenWaitsLeft--;
            return;
        }
        if (spin && spunCount < SAMPLES) {
            spun[spunCount++] = nanos;
        } else if (!spin && parkedCount < SAMPLES) {
            parked[parkedCount++] = nanos;
        }
        if (spunCount == SAMPLES && parkedCount == SAMPLES) {
            boolean spinFaster = median(spun) * 100 <= median(parked) * (100 - REQUIRED_GAIN_PERCENT);
            chosenWaits = spinFaster == spinChosen && chosenWaits > 0
                    ? Math.min(2 * chosenWaits, MOST_CHOSEN_WAITS) : CHOSEN_WAITS;
            chosenWaitsLeft = chosenWaits;
            spinChosen = spinFaster;
            spunCount = 0;
            parkedCount = 0;
        }
    }

    /** Whether the last trial chose spinning; {@code false} before the first one ends. */
    boolean spinChosen() {
        return spinChosen;
    }

    private static long median(long[] samples) {
        long[] sorted = samples.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
