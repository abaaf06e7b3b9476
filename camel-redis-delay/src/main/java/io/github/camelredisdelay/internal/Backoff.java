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

/**
 * Exponential back-off between retries against an unreachable Redis: doubles from {@code initialMs} up to
 * {@code maxMs}, and starts over after a success. Not Camel's {@code org.apache.camel.util.backoff.BackOff}: that one
 * holds settings only, and the next delay is computed inside a {@code BackOffTimer} that runs the task on a thread of
 * its own, while the users here wait their own way: a consumer's reader and a transfer task are woken early by a
 * notice, and the retries of a migration and a wake-up subscription run on threads the component already has.
 */
public final class Backoff {

    private final long initialMs;
    private final long maxMs;
    private long nextMs;

    public Backoff(long initialMs, long maxMs) {
        this.initialMs = initialMs;
        this.maxMs = maxMs;
        this.nextMs = initialMs;
    }

    public synchronized long next() {
        long current = nextMs;
        nextMs = Math.min(maxMs, nextMs * 2);
        return current;
    }

    public synchronized void reset() {
        nextMs = initialMs;
    }
}
