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

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/** Nearest-rank percentiles of a sample, in ms. */
record Percentiles(int count, double p50, double p90, double p99, double max) {

    static Percentiles ofMicros(long[] micros) {
        if (micros.length == 0) {
            return new Percentiles(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        }
        long[] sorted = micros.clone();
        Arrays.sort(sorted);
        return new Percentiles(
                sorted.length, rank(sorted, 0.50), rank(sorted, 0.90), rank(sorted, 0.99),
                sorted[sorted.length - 1] / 1000.0);
    }

    private static double rank(long[] sorted, double quantile) {
        int index = (int) Math.ceil(quantile * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))] / 1000.0;
    }

    Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("count", count);
        map.put("p50Ms", Numbers.round(p50, 3));
        map.put("p90Ms", Numbers.round(p90, 3));
        map.put("p99Ms", Numbers.round(p99, 3));
        map.put("maxMs", Numbers.round(max, 3));
        return map;
    }
}
