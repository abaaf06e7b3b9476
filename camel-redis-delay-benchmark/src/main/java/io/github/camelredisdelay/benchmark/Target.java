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

/**
 * The goal a result row is judged by: a bound on our value, or on the ratio ours / RDelayedQueue.
 *
 * @param text  how the table states it
 * @param kind  what is compared
 * @param bound the limit
 */
record Target(String text, Kind kind, double bound) {

    enum Kind {
        NONE,
        OURS_AT_MOST,
        OURS_AT_LEAST,
        RATIO_AT_MOST,
        RATIO_AT_LEAST
    }

    static Target none() {
        return new Target("–", Kind.NONE, 0);
    }

    static Target oursAtMost(double bound, String text) {
        return new Target(text, Kind.OURS_AT_MOST, bound);
    }

    static Target oursAtLeast(double bound, String text) {
        return new Target(text, Kind.OURS_AT_LEAST, bound);
    }

    static Target ratioAtMost(double bound) {
        return new Target("≤ " + bound + "×", Kind.RATIO_AT_MOST, bound);
    }

    static Target ratioAtLeast(double bound) {
        return new Target("≥ " + bound + "×", Kind.RATIO_AT_LEAST, bound);
    }

    /** Whether the row meets it; {@code null} when there is no target or a value is missing. */
    Boolean met(Double ours, Double ratio) {
        return switch (kind) {
            case NONE -> null;
            case OURS_AT_MOST -> ours == null ? null : ours <= bound;
            case OURS_AT_LEAST -> ours == null ? null : ours >= bound;
            case RATIO_AT_MOST -> ratio == null ? null : ratio <= bound;
            case RATIO_AT_LEAST -> ratio == null ? null : ratio >= bound;
        };
    }
}
