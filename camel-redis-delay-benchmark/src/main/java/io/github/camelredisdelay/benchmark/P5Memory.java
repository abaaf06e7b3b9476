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

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * P5: Redis memory per pending message with a 100-byte body (and, for comparison, a 1,000-byte one): the
 * {@code INFO memory} {@code used_memory} delta / N, and the {@code used_memory_dataset} delta, which leaves out the
 * server's own overhead (client buffers, which grow with the connections a side opens while storing). The JSON has the
 * exact size of every key.
 */
final class P5Memory implements Scenario {

    private static final int MESSAGES = 100_000;
    private static final int BODY_SIZE = 100;
    /** A larger body, for how the ratio moves with the body: the per-entry overhead of Redis weighs less. */
    private static final int LARGE_BODY_SIZE = 1000;
    private static final Duration LOAD_BOUND = Duration.ofSeconds(120);

    /**
     * @param usedMemory    used_memory before and after
     * @param datasetMemory used_memory_dataset before and after
     * @param keySizes      every key afterwards with its MEMORY USAGE
     */
    record Outcome(int stored, long[] usedMemory, long[] datasetMemory, Map<String, Long> keySizes) {

        double bytesPerMessage() {
            return perMessage(usedMemory);
        }

        double datasetBytesPerMessage() {
            return perMessage(datasetMemory);
        }

        private double perMessage(long[] beforeAfter) {
            return stored == 0 ? Double.NaN : (beforeAfter[1] - beforeAfter[0]) / (double) stored;
        }

        Map<String, Object> details() {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("stored", stored);
            details.put("usedMemoryBefore", usedMemory[0]);
            details.put("usedMemoryAfter", usedMemory[1]);
            details.put("bytesPerMessage", Numbers.round(bytesPerMessage(), 1));
            details.put("datasetBytesPerMessage", Numbers.round(datasetBytesPerMessage(), 1));
            details.put("keyBytes", keySizes);
            return details;
        }
    }

    @Override
    public String id() {
        return "P5";
    }

    @Override
    public String title() {
        return "Redis memory per pending message, 100-byte (and 1,000-byte) body, delay 1 h";
    }

    @Override
    public void run(Bench bench) {
        int messages = bench.scaled(MESSAGES, 1000);
        Map<Side, Outcome> outcomes = measure(bench, messages, BODY_SIZE);
        bench.report().add(ResultRow.compare(id(), "Redis memory per pending message, " + BODY_SIZE
                                                   + "-byte body (bytes, used_memory)",
                outcomes, Outcome::bytesPerMessage, Target.ratioAtMost(0.7),
                Outcome::details));
        bench.report().add(ResultRow.compare(id(), "the same, used_memory_dataset (bytes; without client buffers)",
                outcomes, Outcome::datasetBytesPerMessage, Target.ratioAtMost(0.7), Outcome::details));
        bench.report().add(ResultRow.compare(id(), String.format("the same with a %,d-byte body (bytes, used_memory)",
                LARGE_BODY_SIZE), measure(bench, messages, LARGE_BODY_SIZE), Outcome::bytesPerMessage, Target.none(),
                Outcome::details));
    }

    private Map<Side, Outcome> measure(Bench bench, int messages, int bodySize) {
        return bench.onBothSides(id(), (side, queue) -> {
            long usedBefore = bench.redis().memory("used_memory");
            long datasetBefore = bench.redis().memory("used_memory_dataset");
            QueueUnderTest.Load load = queue.preload(messages, seq -> Payload.of(seq, 0, bodySize),
                    seq -> Due.in(ScheduleRateProbe.DELAY_MS), LOAD_BOUND);
            Outcome outcome = new Outcome(
                    load.stored(),
                    new long[] { usedBefore, bench.redis().memory("used_memory") },
                    new long[] { datasetBefore, bench.redis().memory("used_memory_dataset") }, bench.redis().keySizes());
            Bench.log("%s, %d-byte body: %.1f bytes per message (dataset %.1f), keys %s", side.label(), bodySize,
                    outcome.bytesPerMessage(), outcome.datasetBytesPerMessage(), outcome.keySizes());
            return outcome;
        });
    }
}
