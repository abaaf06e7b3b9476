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

import java.util.concurrent.TimeUnit;

/**
 * Lets the start of a spell (an outage, a shortfall of replicas) be reported at most once a minute, so that one that
 * keeps flapping never floods the log. Not thread-safe: its owner calls it under its own lock.
 */
final class ReportGate {

    private static final long QUIET_NANOS = TimeUnit.MINUTES.toNanos(1);

    private long lastReportNanos;

    /** Whether a spell starting now is reported: the first one, and one more than a minute after the last reported. */
    boolean admits() {
        long now = System.nanoTime();
        boolean admitted = lastReportNanos == 0 || now - lastReportNanos > QUIET_NANOS;
        if (admitted) {
            lastReportNanos = now;
        }
        return admitted;
    }
}
