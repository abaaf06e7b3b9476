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

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Statistics of one queue as seen from one endpoint: the counts Redis holds, plus what this JVM measured itself
 * (delivery lateness, and the offset between its clock and Redis' clock that lateness is corrected by).
 */
public final class QueueStatistics {

    private final LatenessWindow lateness = new LatenessWindow();
    private volatile long clockOffsetMs;

    /**
     * Records a delivery of a message due at {@code dueAt} (Redis clock) happening now.
     */
    public void delivered(long dueAt) {
        lateness.record(System.currentTimeMillis() + clockOffsetMs - dueAt);
    }

    /**
     * Measures Redis' clock minus this JVM's, halving the round trip.
     */
    public void measureClockOffset(QueueShard queue) {
        long before = System.currentTimeMillis();
        long redis = queue.redisTimeMillis();
        clockOffsetMs = redis - (before + System.currentTimeMillis()) / 2;
    }

    /**
     * Measures the clock offset in the background; a failure leaves the last measurement.
     */
    public void measureClockOffsetSoon(QueueShard queue) {
        long before = System.currentTimeMillis();
        queue.redisTimeMillisAsync().thenAccept(redis -> clockOffsetMs = redis - (before + System.currentTimeMillis()) / 2);
    }

    public long clockOffsetMs() {
        return clockOffsetMs;
    }

    public LatenessWindow.Summary lateness() {
        return lateness.summary();
    }

    /**
     * Reads the counts from Redis and returns every statistic by name.
     */
    public Map<String, Object> snapshot(ShardedQueue queue, ShardedQueue deadLetterQueue) {
        measureClockOffset(queue.first());
        QueueCounts counts = queue.counts();
        LatenessWindow.Summary summary = lateness.summary();
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("queue", queue.name());
        stats.put("scheduled", counts.scheduled());
        stats.put("ready", counts.ready());
        stats.put("inFlight", counts.inFlight());
        stats.put("deadLetterQueue", deadLetterQueue.name());
        stats.put("deadLettered", deadLetterQueue.size());
        stats.put("oldestOverdueMs", counts.oldestOverdueMs());
        stats.put("latenessSamples", summary.samples());
        stats.put("latenessP50Ms", summary.p50());
        stats.put("latenessP99Ms", summary.p99());
        stats.put("latenessMaxMs", summary.max());
        stats.put("clockOffsetMs", clockOffsetMs);
        return stats;
    }
}
