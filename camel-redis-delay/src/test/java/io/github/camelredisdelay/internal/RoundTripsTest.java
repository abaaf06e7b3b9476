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

class RoundTripsTest {

    private final RoundTrips roundTrips = new RoundTrips();

    @Test
    void theFloorIsZeroUntilTheFirstWindowIsComplete() {
        for (int i = 1; i < RoundTrips.WINDOW; i++) {
            roundTrips.record(5_000);
        }
        assertThat(roundTrips.floorNanos()).isZero();
        roundTrips.record(7_000);
        assertThat(roundTrips.floorNanos()).isEqualTo(5_000);
    }

    @Test
    void oneShortCallInAWindowLowersTheFloorForTheWholeNextWindow() {
        for (int i = 0; i < RoundTrips.WINDOW; i++) {
            roundTrips.record(i == 7 ? 40_000 : 600_000);
        }
        assertThat(roundTrips.floorNanos()).isEqualTo(40_000);
        for (int i = 1; i < RoundTrips.WINDOW; i++) {
            roundTrips.record(600_000);
        }
        assertThat(roundTrips.floorNanos()).isEqualTo(40_000);
        roundTrips.record(650_000);
        assertThat(roundTrips.floorNanos()).isEqualTo(600_000);
    }
}
