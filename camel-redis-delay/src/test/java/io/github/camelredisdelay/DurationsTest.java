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

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DurationsTest {

    @ParameterizedTest
    @CsvSource({
            "1500,1500", "0,0", "30m,1800000", "1h30m,5400000", "2d,172800000", "10s,10000", "500ms,500",
            "PT5S,5000", "pt1m,60000", "' 45s ',45000" })
    void acceptedFormsGiveMilliseconds(String text, long millis) {
        assertThat(Durations.parse(text, "delay")).isEqualTo(millis);
    }

    @ParameterizedTest
    @ValueSource(strings = { "30M", "1H", "5 min", "1h 30m", "30 s", "250ms30s", "soon", "", "1.5s" })
    void otherFormsAreRejectedShowingTheAcceptedOnes(String text) {
        assertThatThrownBy(() -> Durations.parse(text, "delay of queue q"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("delay of queue q");
    }

    @ParameterizedTest
    @ValueSource(strings = { "-5", "-5m", "-1h30m", " -45s ", "PT-5S", "-PT5S" })
    void negativeValuesOfEveryFormAreRejectedAsNegative(String text) {
        assertThatThrownBy(() -> Durations.parse(text, "delay of queue q"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("The delay of queue q must not be negative: " + text);
    }

    @Test
    void tooLargeValuesAreRejected() {
        assertThatThrownBy(() -> Durations.parse("99999999999999999999", "delay")).hasMessageContaining("too large");
        assertThatThrownBy(() -> Durations.checkRange(Durations.MAX_MILLIS + 1, "delay", "x"))
                .hasMessageContaining("too large");
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "18446744073709552s", "213503982336d", "106751991168d", "9223372036854775807ms",
            "99999999999999999999h", "104249992d", "104249991d23h59m59s999ms" })
    void unitAmountsBeyondTheLargestDelayAreTooLargeWhateverTheirProductInALong(String text) {
        assertThatThrownBy(() -> Durations.parse(text, "delay of queue q"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("delay of queue q").hasMessageContaining(text).hasMessageContaining("too large");
    }

    @Test
    void theLargestDelayMayBeWrittenInUnits() {
        assertThat(Durations.parse("104249991d8h59m0s991ms", "delay")).isEqualTo(Durations.MAX_MILLIS);
    }

    @Test
    void listsAreSplitOnCommas() {
        assertThat(Durations.parseList("1s, 5s,2m", "retrySchedule", "retrySchedule entry")).containsExactly(1000L, 5000L,
                120000L);
    }
}
