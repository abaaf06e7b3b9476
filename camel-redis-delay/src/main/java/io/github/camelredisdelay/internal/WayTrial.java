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
 * Chooses between two ways of waiting for Redis by timing both on this machine: a plain way and a costlier one, which
 * spends something the wait does not show (a core, more script calls) and is taken only where it makes the waits
 * shorter. Which one is faster depends on the machine and its load (design notes 13), so a trial times
 * {@value #SAMPLES} waits each way, alternating in runs of {@code run} waits so both see the same conditions; then the
 * next waits take the way whose median was shorter, then the trial runs again. Those are {@value #CHOSEN_WAITS} waits
 * after a trial that changed the way, and twice as many as last time, up to {@value #MOST_CHOSEN_WAITS}, after one that
 * kept it, so a machine where one way is plainly faster spends few waits on the other. The costlier way wins only when
 * its median is shorter by at least {@value #REQUIRED_GAIN_PERCENT}%. The median, not the mean, so that a garbage
 * collection pause in one sample decides nothing.
 * <p>
 * Not thread-safe: its owner guards it.
 */
final class WayTrial {

    /** Waits timed each way per trial. */
    static final int SAMPLES = 64;
    /** Waits that take the chosen way after a trial that changed it, before the next trial. */
    static final int CHOSEN_WAITS = 14 * 2 * SAMPLES;
    /** The most waits between two trials. */
    static final int MOST_CHOSEN_WAITS = 16 * CHOSEN_WAITS;
    /**
     * Waits in a row that take one way during a trial of the component's: a wait starts where the last one's way left
     * the machine (a spinning caller keeps its processor awake; calls take a moment to settle into a second call), so
     * waits taking the two ways in turn one by one were each timed partly in the other way's conditions (design notes
     * 13).
     */
    static final int RUN = 16;
    /** How much shorter the median wait the costlier way must be than the plain way's for it to be chosen. */
    static final int REQUIRED_GAIN_PERCENT = 5;

    private final int run;
    private final long[] costlier = new long[SAMPLES];
    private final long[] plain = new long[SAMPLES];
    private int costlierCount;
    private int plainCount;
    private boolean costlierChosen;
    /** How many waits took the chosen way after the last trial. */
    private int chosenWaits;
    private int chosenWaitsLeft;

    /** A trial in runs of {@link #RUN} waits. */
    WayTrial() {
        this(RUN);
    }

    /** @param run how many waits in a row take one way during a trial before the other way's turn */
    WayTrial(int run) {
        if (run < 1 || SAMPLES % run != 0) {
            throw new IllegalArgumentException("run must divide " + SAMPLES + ", not " + run);
        }
        this.run = run;
    }

    /** Whether the next wait takes the costlier way: the way a trial chose, or during a trial, each way in turn. */
    boolean costlierNext() {
        return chosenWaitsLeft > 0 ? costlierChosen : costlierCount / run <= plainCount / run;
    }

    /** Records how long a wait took, from the request sent to the reply seen, and whether it took the costlier way. */
    void record(boolean costlierWay, long nanos) {
        if (chosenWaitsLeft > 0) {
            chosenWaitsLeft--;
            return;
        }
        if (costlierWay && costlierCount < SAMPLES) {
            costlier[costlierCount++] = nanos;
        } else if (!costlierWay && plainCount < SAMPLES) {
            plain[plainCount++] = nanos;
        }
        if (costlierCount == SAMPLES && plainCount == SAMPLES) {
            boolean costlierFaster = median(costlier) * 100 <= median(plain) * (100 - REQUIRED_GAIN_PERCENT);
            chosenWaits = costlierFaster == costlierChosen && chosenWaits > 0
                    ? Math.min(2 * chosenWaits, MOST_CHOSEN_WAITS) : CHOSEN_WAITS;
            chosenWaitsLeft = chosenWaits;
            costlierChosen = costlierFaster;
            costlierCount = 0;
            plainCount = 0;
        }
    }

    /** Whether the last trial chose the costlier way; {@code false} before the first one ends. */
    boolean costlierChosen() {
        return costlierChosen;
    }

    private static long median(long[] samples) {
        long[] sorted = samples.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
