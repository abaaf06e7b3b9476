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

import java.time.Duration;

import org.redisson.api.BatchOptions;

/**
 * How long a write waits for durability before it counts as done: for {@code replicas} replicas to have it (WAIT), and
 * with {@code aof} also for it to be in those replicas' append-only files (WAITAOF; the master is asked for its own
 * too, but Redisson reports only the replicas' count).
 *
 * @param replicas  replicas that must have the write; 0 = do not wait
 * @param aof       also wait for the append-only files
 * @param timeoutMs longest wait
 */
public record WriteSync(int replicas, boolean aof, long timeoutMs) {

    /** No waiting: Redis' asynchronous replication. */
    public static final WriteSync NONE = new WriteSync(0, false, 0);

    public boolean enabled() {
        return replicas > 0;
    }

    /** Batch options that make Redisson send WAIT or WAITAOF right after the write, on the same connection. */
    BatchOptions batchOptions() {
        BatchOptions options = BatchOptions.defaults();
        return aof
                ? options.syncAOF(1, replicas, Duration.ofMillis(timeoutMs))
                : options.sync(replicas, Duration.ofMillis(timeoutMs));
    }
}
