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
 * The shortest round trip among the last {@value #WINDOW} successful calls to Redis: the link and Redis' own work for
 * the quickest of them, so a floor to what the link takes. Waiting for a busy CPU makes calls slower, never faster, so
 * a short call in a window shows that the link is short, however loaded the machine; only a link that is long for every
 * call keeps the floor high. Not thread-safe: its owner guards it; {@link #floorNanos} may be read without that guard.
 */
final class RoundTrips {

    /**
     * The floor from which a link is long: Redis on another host, whose round trip (0.5 ms within a zone) is what
     * callers wait for, rather than on this one. Measured on the reference machine (2 cores, design notes 13): through
     * P6's proxy (0.5 ms more) the shortest call of a window took 0.52 ms or more; on loopback at most 0.23 ms, even
     * with 16 threads scheduling. A short link is where a caller may spin for its reply ({@link ReplySpin}) and a long
     * one where a second call leaves untimed ({@link SecondCalls}).
     */
    static final long LONG_LINK_NANOS = 300_000;
    /** Calls per window; the floor is the shortest of the last complete window. */
    static final int WINDOW = 16;

    private long shortestInWindow = Long.MAX_VALUE;
    private int callsInWindow;
    /** Written by the owner, under its guard; read without it by a caller that may spin ({@link ReplySpin}). */
    private volatile long floorNanos;

    void record(long nanos) {
        shortestInWindow = Math.min(shortestInWindow, nanos);
        if (++callsInWindow == WINDOW) {
            floorNanos = shortestInWindow;
            shortestInWindow = Long.MAX_VALUE;
            callsInWindow = 0;
        }
    }

    /** The shortest round trip of the last complete window in ns; 0 before the first window is complete. */
    long floorNanos() {
        return floorNanos;
    }
}
