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

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A logarithmic axis from one power of ten to another, mapped onto the pixels {@code from}..{@code to}.
 *
 * @param lowExponent  the axis starts at 10^lowExponent
 * @param highExponent and ends at 10^highExponent
 */
record LogAxis(int lowExponent, int highExponent, double from, double to) {

    /** The decades that hold {@code low}..{@code high} (both positive), at least one. */
    static LogAxis spanning(double low, double high, double from, double to) {
        int lowExponent = (int) Math.floor(Math.log10(low));
        int highExponent = Math.max(lowExponent + 1, (int) Math.ceil(Math.log10(high)));
        return new LogAxis(lowExponent, highExponent, from, to);
    }

    double low() {
        return Math.pow(10, lowExponent);
    }

    /** The pixel of {@code value}; values outside the axis are put at its ends. */
    double pixel(double value) {
        double exponent = Math.log10(Math.max(value, low()));
        double share = Math.min(1, (exponent - lowExponent) / (highExponent - lowExponent));
        return from + share * (to - from);
    }

    /** 10^lowExponent, 10^(lowExponent + 1), ... 10^highExponent. */
    List<Double> decades() {
        List<Double> decades = new ArrayList<>();
        for (int exponent = lowExponent; exponent <= highExponent; exponent++) {
            decades.add(Math.pow(10, exponent));
        }
        return decades;
    }

    /** A decade as text: 0.01, 0.1, 1, 10, 1,000. */
    static String label(double decade) {
        return decade < 1 ? String.valueOf(decade) : String.format(Locale.ROOT, "%,.0f", decade);
    }
}
