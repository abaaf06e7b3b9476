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

import java.time.Duration;

import io.github.camelredisdelay.internal.Delivery;
import org.junit.jupiter.api.Test;
import org.redisson.api.stream.PendingEntry;
import org.redisson.api.stream.StreamMessageId;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class AbandonedLeasesTest {

    private static final StreamMessageId LEFT = new StreamMessageId(1, 0);

    @Test
    void aDeliveryLeftToItsLeaseIsRememberedLongAfterTenOfTheConsumersOwnVisibilityTimeouts() {
        // another consumer of the queue may hold messages under a lease of up to a day: a look for expired leases waits
        // that long before it takes this one over, and until then a look after a lost read must leave it alone
        AbandonedLeases abandoned = new AbandonedLeases();
        abandoned.add(firstDeliveryOf(LEFT));

        // ten visibility timeouts of a consumer with the shortest allowed, 100 ms
        await().pollDelay(Duration.ofMillis(1_200)).atMost(Duration.ofSeconds(2)).until(() -> true);
        // a later delivery left to its lease, which made it forget those remembered for ten visibility timeouts
        abandoned.add(firstDeliveryOf(new StreamMessageId(2, 0)));

        assertThat(abandoned.leftToExpire(new PendingEntry(LEFT, "consumer", 1_200, 1))).isTrue();
    }

    @Test
    void aDeliveryLeftToItsLeaseThatAReadTookAgainSinceIsNoLongerLeftToExpire() {
        AbandonedLeases abandoned = new AbandonedLeases();
        abandoned.add(firstDeliveryOf(LEFT));

        assertThat(abandoned.leftToExpire(new PendingEntry(LEFT, "consumer", 10, 1))).isTrue();
        assertThat(abandoned.leftToExpire(new PendingEntry(LEFT, "consumer", 10, 2))).isFalse();
    }

    @Test
    void aConsumerLeavingMoreToExpireThanItRemembersForgetsTheOldestFirst() {
        AbandonedLeases abandoned = new AbandonedLeases(Duration.ofDays(1), 2);
        StreamMessageId second = new StreamMessageId(2, 0);
        StreamMessageId third = new StreamMessageId(3, 0);
        abandoned.add(firstDeliveryOf(LEFT));
        await().pollDelay(Duration.ofMillis(5)).atMost(Duration.ofSeconds(1)).until(() -> true);
        abandoned.add(firstDeliveryOf(second));
        abandoned.add(firstDeliveryOf(third));

        assertThat(abandoned.leftToExpire(new PendingEntry(LEFT, "consumer", 10, 1))).isFalse();
        assertThat(abandoned.leftToExpire(new PendingEntry(second, "consumer", 10, 1))).isTrue();
        assertThat(abandoned.leftToExpire(new PendingEntry(third, "consumer", 10, 1))).isTrue();
    }

    private static Delivery firstDeliveryOf(StreamMessageId entryId) {
        return new Delivery(entryId, "job-" + entryId, 0, 0, 0, 1, 0, new byte[0], null, null);
    }
}
