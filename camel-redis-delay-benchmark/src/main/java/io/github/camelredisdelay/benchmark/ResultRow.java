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

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * One line of the result table.
 *
 * @param id       scenario id, such as {@code P1}
 * @param scenario what was measured, with its unit
 * @param ours     the redis-delay component's value, or null when not measured
 * @param theirs   RDelayedQueue's value, or null when not measured
 * @param target   the goal for our side
 * @param details  everything else measured, for the JSON file
 */
record ResultRow(String id, String scenario, Double ours, Double theirs, Target target, Map<String, Object> details) {

    /**
     * A row comparing one metric of both sides' outcomes; a side that was not measured is left empty. The details hold
     * each side's full outcome.
     */
    static <T> ResultRow compare(
            String id, String scenario, Map<Side, T> outcomes, ToDoubleFunction<T> metric,
            Target target, Function<T, Map<String, Object>> details) {
        Map<String, Object> both = new LinkedHashMap<>();
        outcomes.forEach((side, outcome) -> both.put(side.label(), details.apply(outcome)));
        return new ResultRow(
                id, scenario, valueOf(outcomes.get(Side.OURS), metric),
                valueOf(outcomes.get(Side.THEIRS), metric), target, both);
    }

    /**
     * A row comparing each side's median over several rounds; the details hold the median's outcome and every round's
     * value ({@code rounds}, lowest first).
     */
    static <T> ResultRow compareMedians(
            String id, String scenario, Map<Side, Rounds<T>> rounds,
            ToDoubleFunction<T> metric, Target target, Function<T, Map<String, Object>> details) {
        Map<String, Object> both = new LinkedHashMap<>();
        rounds.forEach((side, sideRounds) -> {
            Map<String, Object> sideDetails = new LinkedHashMap<>(details.apply(sideRounds.median()));
            sideDetails.put("rounds", sideRounds.values());
            both.put(side.label(), sideDetails);
        });
        Map<Side, T> medians = Rounds.medians(rounds);
        return new ResultRow(
                id, scenario, valueOf(medians.get(Side.OURS), metric),
                valueOf(medians.get(Side.THEIRS), metric), target, both);
    }

    private static <T> Double valueOf(T outcome, ToDoubleFunction<T> metric) {
        return outcome == null ? null : metric.applyAsDouble(outcome);
    }

    /** ours / theirs. */
    Double ratio() {
        if (ours == null || theirs == null || theirs == 0 || ours.isNaN() || theirs.isNaN()) {
            return null;
        }
        return ours / theirs;
    }

    Boolean met() {
        return target.met(ours, ratio());
    }
}
