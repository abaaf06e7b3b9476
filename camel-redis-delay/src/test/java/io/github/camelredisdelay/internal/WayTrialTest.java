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

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link WayTrial} as {@link ReplySpin} uses it (spinning is the costlier way, the ways alternate wait by wait), and in
 * runs.
 */
class WayTrialTest {

    private final WayTrial trial = new WayTrial(1);

    @Test
    void aTrialSpinsAndParksInTurn() {
        for (int i = 0; i < 2 * WayTrial.SAMPLES - 1; i++) {
            boolean spin = trial.costlierNext();
            assertThat(spin).as("wait %d", i).isEqualTo(i % 2 == 0);
            trial.record(spin, 1_000);
        }
        assertThat(trial.costlierChosen()).isFalse();
    }

    @Test
    void aTrialInRunsTakesEachWayForAWholeRunInTurn() {
        WayTrial inRuns = new WayTrial(16);
        for (int i = 0; i < 2 * WayTrial.SAMPLES; i++) {
            boolean costlier = inRuns.costlierNext();
            assertThat(costlier).as("wait %d", i).isEqualTo(i / 16 % 2 == 0);
            inRuns.record(costlier, 1_000);
        }
        assertThat(inRuns.costlierNext()).as("the next trial's first wait, after the chosen stretch").isFalse();
    }

    @Test
    void aRunMustDivideTheSamples() {
        assertThatThrownBy(() -> new WayTrial(3)).hasMessage("run must divide 64, not 3");
    }

    @Test
    void spinningIsChosenWhenItsMedianWaitIsShorter() {
        runTrial(50_000, 100_000);
        assertThat(trial.costlierChosen()).isTrue();
        for (int i = 0; i < WayTrial.CHOSEN_WAITS; i++) {
            assertThat(trial.costlierNext()).as("wait %d after the trial", i).isTrue();
            trial.record(true, 50_000);
        }
    }

    @Test
    void parkingIsChosenWhenItsMedianWaitIsShorter() {
        runTrial(300_000, 90_000);
        assertThat(trial.costlierChosen()).isFalse();
        assertThat(waitsUntilTheNextTrial()).isEqualTo(WayTrial.CHOSEN_WAITS);
    }

    @Test
    void parkingIsChosenWhenSpinningSavesLessThanItsCoreIsWorth() {
        runTrial(97_000, 100_000);
        assertThat(trial.costlierChosen()).isFalse();
    }

    @Test
    void theMedianDecidesNotARareLongWait() {
        // each way's waits: 50 µs and 100 µs, with two parked waits of a second (a pause) among them
        for (int i = 0; i < 2 * WayTrial.SAMPLES; i++) {
            boolean spin = trial.costlierNext();
            trial.record(spin, spin ? 50_000 : i < 4 ? 1_000_000_000 : 100_000);
        }
        assertThat(trial.costlierChosen()).isTrue();
    }

    @Test
    void aWayKeptByTheNextTrialIsKeptTwiceAsLongUpToALimit() {
        int expected = WayTrial.CHOSEN_WAITS;
        for (int trials = 0; trials < 7; trials++) {
            runTrial(300_000, 90_000);
            assertThat(waitsUntilTheNextTrial()).as("after trial %d", trials).isEqualTo(expected);
            expected = Math.min(2 * expected, WayTrial.MOST_CHOSEN_WAITS);
        }
        assertThat(expected).isEqualTo(WayTrial.MOST_CHOSEN_WAITS);
    }

    @Test
    void aWayChangedByATrialIsKeptForTheShortestStretch() {
        runTrial(300_000, 90_000);
        waitsUntilTheNextTrial();
        runTrial(300_000, 90_000);
        waitsUntilTheNextTrial();
        runTrial(50_000, 100_000);
        assertThat(trial.costlierChosen()).isTrue();
        runTrialAfterSpinning(300_000, 90_000);
        assertThat(trial.costlierChosen()).isFalse();
        assertThat(waitsUntilTheNextTrial()).isEqualTo(WayTrial.CHOSEN_WAITS);
    }

    /** One whole trial, with every wait spinning or parked taking the time given. */
    private void runTrial(long spunNanos, long parkedNanos) {
        for (int i = 0; i < 2 * WayTrial.SAMPLES; i++) {
            boolean spin = trial.costlierNext();
            trial.record(spin, spin ? spunNanos : parkedNanos);
        }
    }

    /** Spins through the stretch a trial that changed the way to spinning chose, then runs the next trial. */
    private void runTrialAfterSpinning(long spunNanos, long parkedNanos) {
        for (int i = 0; i < WayTrial.CHOSEN_WAITS; i++) {
            trial.record(true, spunNanos);
        }
        runTrial(spunNanos, parkedNanos);
    }

    /**
     * Parks through the stretch chosen by a trial that chose parking, and counts its waits: the next trial's first wait
     * is the first that spins.
     */
    private int waitsUntilTheNextTrial() {
        int waits = 0;
        while (!trial.costlierNext() && waits <= WayTrial.MOST_CHOSEN_WAITS) {
            trial.record(false, 90_000);
            waits++;
        }
        return waits;
    }
}
