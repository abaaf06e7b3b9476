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
        return new Percentiles(sorted.length, rank(sorted, 0.50), rank(sorted, 0.90), rank(sorted, 0.99),
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
