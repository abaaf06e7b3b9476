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
 * Whether the Redis of one connection left a read of queue statistics unanswered for longer than a monitoring read
 * waits ({@link QueueStatistics#snapshotForMonitoring}), and has answered none since. The monitoring reads of every
 * queue of the connection then wait for Redis no more, so a scrape of many queues on a stalled Redis waits once, not
 * once per queue.
 */
public final class StatisticsSilence {

    private volatile boolean silent;

    /** A monitoring read waited for a refresh in vain. */
    void waitedInVain() {
        silent = true;
    }

    /** Redis answered a refresh. */
    void answered() {
        if (silent) {
            silent = false;
        }
    }

    boolean isSilent() {
        return silent;
    }
}
