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

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What to run, read from system properties: {@code bench.scale} multiplies every message count (1.0 = the full
 * benchmark), {@code bench.only} is a comma-separated list of scenario ids or {@code all}, {@code bench.redis} picks
 * the redis-server binary ({@code path} or {@code embedded}), {@code bench.output} is the JSON file.
 */
record BenchSettings(double scale, Set<String> only, String redisBinary, Path output) {

    private static final String ALL = "all";

    static BenchSettings fromSystemProperties() {
        double scale = Double.parseDouble(System.getProperty("bench.scale", "1.0"));
        if (!(scale > 0 && scale <= 100)) {
            throw new IllegalArgumentException("bench.scale must be in (0, 100], not " + scale);
        }
        String only = System.getProperty("bench.only", ALL).trim();
        Set<String> ids = only.isEmpty() || only.equalsIgnoreCase(ALL)
                ? Set.of()
                : Arrays.stream(only.split(",")).map(String::trim).filter(id -> !id.isEmpty())
                        .map(id -> id.toUpperCase(Locale.ROOT)).collect(Collectors.toUnmodifiableSet());
        return new BenchSettings(
                scale, ids, System.getProperty("bench.redis", "path"),
                Path.of(System.getProperty("bench.output", "target/benchmark-results.json")));
    }

    /** A message count of the full benchmark scaled by {@code bench.scale}, at least {@code min}. */
    int scaled(int fullCount, int min) {
        return (int) Math.max(min, Math.round(fullCount * scale));
    }

    boolean selected(String scenarioId) {
        return only.isEmpty() || only.contains(scenarioId.toUpperCase(Locale.ROOT));
    }
}
