package io.github.camelredisdelay.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LatenessWindowTest {

    @Test
    void emptyWindowSummarizesToZeros() {
        assertThat(new LatenessWindow().summary()).isEqualTo(new LatenessWindow.Summary(0, 0, 0, 0));
    }

    @Test
    void percentilesAreNearestRank() {
        LatenessWindow window = new LatenessWindow();
        for (int i = 1; i <= 100; i++) {
            window.record(i);
        }

        assertThat(window.summary()).isEqualTo(new LatenessWindow.Summary(100, 50, 99, 100));
    }

    @Test
    void onlyTheLastSamplesAreKept() {
        LatenessWindow window = new LatenessWindow();
        window.record(1_000_000);
        for (int i = 0; i < LatenessWindow.SIZE; i++) {
            window.record(3);
        }

        assertThat(window.summary().max()).isEqualTo(3);
        assertThat(window.summary().samples()).isEqualTo(LatenessWindow.SIZE);
    }
}
