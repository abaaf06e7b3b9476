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

import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * One side's outcomes of the same measurement repeated in several rounds, ordered by the metric the table shows; the
 * table shows the median.
 *
 * @param sorted the outcomes, lowest metric first
 * @param values the metric of each, in the same order
 */
record Rounds<T>(List<T> sorted, List<Double> values) {

    static <T> Rounds<T> of(List<T> outcomes, ToDoubleFunction<T> metric) {
        List<T> sorted = outcomes.stream().sorted(Comparator.comparingDouble(metric)).toList();
        return new Rounds<>(sorted, sorted.stream().map(metric::applyAsDouble).toList());
    }

    T median() {
        return sorted.get(sorted.size() / 2);
    }

    /** Each side's median outcome. */
    static <T> Map<Side, T> medians(Map<Side, Rounds<T>> rounds) {
        Map<Side, T> medians = new EnumMap<>(Side.class);
        rounds.forEach((side, sideRounds) -> medians.put(side, sideRounds.median()));
        return medians;
    }
}
