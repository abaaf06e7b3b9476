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
package io.github.camelredisdelay;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import org.apache.camel.TypeConverter;

/**
 * Reads delays written as text, strictly. Camel's own converter reads units in lower case only and turns a string such
 * as {@code 30M} into 0 without complaint; here such a string is rejected with a message that shows the accepted forms,
 * and only strings of an accepted form are handed to Camel's converter.
 */
final class Durations {

    /** Largest delay or due time: the largest integer a Lua number holds exactly. */
    static final long MAX_MILLIS = (1L << 53) - 1;

    private static final String FORMS
            = "milliseconds (1500), lower-case units, each once and largest first (30m, 1h30m, 2d, 10s, 500ms), or ISO-8601 (PT5S)";
    private static final Pattern MILLIS = Pattern.compile("\\d+");
    /**
     * Units largest first, each at most once: Camel's converter reads only the first amount of each unit, so it would
     * read 250ms30s as 250 ms and 1m1m as one minute.
     */
    private static final Pattern UNITS = Pattern.compile(
            "(?=\\d)(\\d+\\s*d\\s*)?(\\d+\\s*h\\s*)?(\\d+\\s*m(?!s)\\s*)?(\\d+\\s*s\\s*)?(\\d+\\s*ms\\s*)?");
    private static final Pattern ISO = Pattern.compile("[-+]?P.*", Pattern.CASE_INSENSITIVE);

    private Durations() {
    }

    /**
     * @param  what                     names the value in the error message, e.g. "delay of queue orders"
     * @throws IllegalArgumentException when the text is not a non-negative delay of an accepted form
     */
    static long parse(String text, TypeConverter converter, String what) {
        String value = text.trim();
        if (MILLIS.matcher(value).matches()) {
            return checkRange(parseMillis(value, what), what, text);
        }
        if (!UNITS.matcher(value).matches() && !ISO.matcher(value).matches()) {
            throw new IllegalArgumentException("Invalid " + what + " '" + text + "': use " + FORMS);
        }
        Duration duration;
        try {
            duration = ISO.matcher(value).matches()
                    ? Duration.parse(value.toUpperCase()) : converter.mandatoryConvertTo(Duration.class, value);
        } catch (Exception e) {
            throw new IllegalArgumentException("Invalid " + what + " '" + text + "': use " + FORMS, e);
        }
        try {
            return checkRange(duration.toMillis(), what, text);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(
                    "The " + what + " '" + text + "' is too large; at most " + MAX_MILLIS + " ms", e);
        }
    }

    /**
     * Parses a comma-separated list of delays, such as a retry schedule.
     */
    static List<Long> parseList(String text, TypeConverter converter, String what) {
        List<Long> delays = new ArrayList<>();
        for (String part : text.split(",")) {
            delays.add(parse(part, converter, what));
        }
        return delays;
    }

    /**
     * @throws IllegalArgumentException when the value is negative or beyond {@link #MAX_MILLIS}
     */
    static long checkRange(long millis, String what, Object original) {
        if (millis < 0) {
            throw new IllegalArgumentException("The " + what + " must not be negative: " + original);
        }
        if (millis > MAX_MILLIS) {
            throw new IllegalArgumentException("The " + what + " " + original + " is too large; at most " + MAX_MILLIS + " ms");
        }
        return millis;
    }

    private static long parseMillis(String digits, String what) {
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "The " + what + " " + digits + " is too large; at most " + MAX_MILLIS + " ms", e);
        }
    }
}
