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
