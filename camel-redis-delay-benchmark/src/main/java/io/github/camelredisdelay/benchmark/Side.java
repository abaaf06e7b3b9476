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
package io.github.camelredisdelay.benchmark;

/** The two queues compared. */
enum Side {
    OURS("redis-delay") {
        @Override
        QueueUnderTest open(Bench bench, String run) {
            return new RedisDelayComponentQueue(bench.redis(), bench.camel(), "bench:" + run, run);
        }
    },
    THEIRS("RDelayedQueue") {
        @Override
        QueueUnderTest open(Bench bench, String run) {
            return new RDelayedQueueBaseline(bench.redis(), bench.redisson(), "bench:" + run);
        }
    };

    private final String label;

    Side(String label) {
        this.label = label;
    }

    String label() {
        return label;
    }

    /** A new, empty queue named after the run. */
    abstract QueueUnderTest open(Bench bench, String run);
}
