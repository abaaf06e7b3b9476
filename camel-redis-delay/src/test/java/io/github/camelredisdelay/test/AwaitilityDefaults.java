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
package io.github.camelredisdelay.test;

import java.time.Duration;

import org.awaitility.Awaitility;
import org.awaitility.pollinterval.PollInterval;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * How the suite's Awaitility waits poll, unless a wait says otherwise: the condition is checked at once, then 10, 20,
 * 40 and 80 ms apart, and every 100 ms from then on. Awaitility's own default checks first after 100 ms and then every
 * 100 ms, so that a condition already true, or true a few milliseconds later, cost each wait 100 ms. JUnit registers
 * this extension for every test class (junit-platform.properties, META-INF/services).
 */
public final class AwaitilityDefaults implements BeforeAllCallback {

    /** Awaitility's own poll interval, which waits longer than a few polls keep. */
    private static final Duration LONGEST_INTERVAL = Duration.ofMillis(100);
    private static final long FIRST_INTERVAL_MS = 10;

    /** The intervals between the checks of a wait: 10 ms, doubled after each check up to {@link #LONGEST_INTERVAL}. */
    private static final PollInterval DOUBLING_TO_LONGEST = (pollCount, previous) -> Duration
            .ofMillis(Math.min(LONGEST_INTERVAL.toMillis(), FIRST_INTERVAL_MS << Math.min(pollCount - 1, 4)));

    @Override
    public void beforeAll(ExtensionContext context) {
        Awaitility.setDefaultPollDelay(Duration.ZERO);
        Awaitility.setDefaultPollInterval(DOUBLING_TO_LONGEST);
    }
}
