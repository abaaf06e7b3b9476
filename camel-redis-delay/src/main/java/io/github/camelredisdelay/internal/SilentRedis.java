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
 * Whether the Redis of one connection was found silent (a wait for it ran out) and has answered nothing since, for one
 * kind of wait, so that the first to find out spares the others of that kind the wait. Each connection keeps one for
 * its stopping consumers, which stop one after another (a read left unanswered for 5 s, or leaving the consumer group
 * unanswered for 2 s), and one for the monitoring reads of its queues' counts
 * ({@link QueueStatistics#snapshotForMonitoring}).
 */
public final class SilentRedis {

    private volatile boolean silent;

    /** A wait for Redis ran out. */
    public void waitedInVain() {
        silent = true;
    }

    /** Redis answered. */
    public void answered() {
        if (silent) {
            silent = false;
        }
    }

    public boolean isSilent() {
        return silent;
    }
}
