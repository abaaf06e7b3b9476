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

/**
 * Decides what follows a failed delivery: another delivery after the retry schedule's delay for this attempt (the last
 * delay repeats), or the dead-letter queue once {@code maxDeliveries} deliveries failed.
 */
public final class RetryPolicy {

    private final List<Long> delays;
    private final int maxDeliveries;

    /**
     * @param maxDeliveries 0 retries forever
     */
    public RetryPolicy(List<Long> delays, int maxDeliveries) {
        this.delays = List.copyOf(delays);
        this.maxDeliveries = maxDeliveries;
    }

    /**
     * @param  deliveryCount the failed delivery's count, 1 for the first
     * @return               the delay before the next delivery, or empty when the message is exhausted
     */
    public OptionalLong delayAfter(int deliveryCount) {
        if (isExhausted(deliveryCount)) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(delays.get(Math.min(deliveryCount, delays.size()) - 1));
    }

    /**
     * How many of the schedule's delays, from the first, some retry waits: all of them when {@code maxDeliveries}
     * allows as many retries or more (the last repeats), else one per retry ({@code maxDeliveries} counts the first
     * delivery).
     */
    public int delaysUsed() {
        return maxDeliveries == 0 ? delays.size() : Math.min(delays.size(), Math.max(0, maxDeliveries - 1));
    }

    /**
     * Whether a message whose last {@code failedDeliveries} deliveries all failed (by an exception, or by a lease that
     * expired) goes to the dead-letter queue.
     */
    public boolean isExhausted(int failedDeliveries) {
        return maxDeliveries > 0 && failedDeliveries >= maxDeliveries;
    }
}
