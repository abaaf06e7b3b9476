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

import java.util.List;
import java.util.OptionalLong;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RetryPolicyTest {

    @Test
    void delaysFollowTheScheduleAndTheLastOneRepeats() {
        RetryPolicy policy = new RetryPolicy(List.of(1000L, 5000L), 0);

        assertThat(policy.delayAfter(1)).hasValue(1000L);
        assertThat(policy.delayAfter(2)).hasValue(5000L);
        assertThat(policy.delayAfter(7)).hasValue(5000L);
    }

    @Test
    void messageIsExhaustedAfterMaxDeliveries() {
        RetryPolicy policy = new RetryPolicy(List.of(1000L), 3);

        assertThat(policy.delayAfter(2)).isPresent();
        assertThat(policy.delayAfter(3)).isEmpty();
    }

    @Test
    void delaysUsedAreTheOnesSomeRetryWaits() {
        List<Long> fourDelays = List.of(15_000L, 180_000L, 600_000L, 1_800_000L);

        // maxDeliveries counts the first delivery: 4 deliveries are 3 retries, which never wait the fourth delay
        assertThat(new RetryPolicy(fourDelays, 4).delaysUsed()).isEqualTo(3);
        assertThat(new RetryPolicy(fourDelays, 5).delaysUsed()).isEqualTo(4);
        assertThat(new RetryPolicy(fourDelays, 9).delaysUsed()).as("the last delay repeats").isEqualTo(4);
        assertThat(new RetryPolicy(fourDelays, 0).delaysUsed()).as("retried for ever").isEqualTo(4);
        assertThat(new RetryPolicy(fourDelays, 1).delaysUsed()).as("never retried").isZero();
        for (int maxDeliveries = 2; maxDeliveries <= 6; maxDeliveries++) {
            RetryPolicy policy = new RetryPolicy(fourDelays, maxDeliveries);
            long waited = IntStream.rangeClosed(1, maxDeliveries)
                    .mapToObj(policy::delayAfter).filter(OptionalLong::isPresent).count();
            assertThat(policy.delaysUsed()).as("maxDeliveries=%d", maxDeliveries).isEqualTo((int) Math.min(waited, 4));
        }
    }
}
