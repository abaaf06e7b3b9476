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
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.camelredisdelay.internal.LogText;

/**
 * Reads delays written as text, strictly. Camel's own converter reads units in lower case only, turns a string such as
 * {@code 30M} into 0 without complaint and multiplies amounts without an overflow check ({@code 18446744073709552s}
 * reads as 384 ms); here a string of another form is rejected with a message that shows the accepted forms, and one
 * beyond the largest delay as too large.
 */
final class Durations {

    /** Largest delay or due time: the largest integer a Lua number holds exactly. */
    static final long MAX_MILLIS = (1L << 53) - 1;

    private static final String FORMS
            = "milliseconds (1500), lower-case units, each once and largest first (30m, 1h30m, 2d, 10s, 500ms), or ISO-8601 of days to seconds (PT5S, P2DT3H)";
    private static final Pattern MILLIS = Pattern.compile("\\d+");
    /**
     * Units largest first, each at most once, without spaces: {@code 250ms30s} and {@code 1m1m} are rejected rather
     * than read as 250 ms or one minute, as Camel's converter would.
     */
    private static final Pattern UNITS = Pattern.compile(
            "(?=\\d)(?:(\\d+)d)?(?:(\\d+)h)?(?:(\\d+)m(?!s))?(?:(\\d+)s)?(?:(\\d+)ms)?");
    /** Milliseconds of each unit, in the order of {@link #UNITS}' groups. */
    private static final long[] UNIT_MILLIS = {
            TimeUnit.DAYS.toMillis(1), TimeUnit.HOURS.toMillis(1),
            TimeUnit.MINUTES.toMillis(1), TimeUnit.SECONDS.toMillis(1), 1 };
    private static final Pattern ISO = Pattern.compile("[-+]?P.*", Pattern.CASE_INSENSITIVE);

    private Durations() {
    }

    /**
     * @param  what                     names the value in the error message, e.g. "delay of queue orders"
     * @throws IllegalArgumentException when the text is not a non-negative delay of an accepted form
     */
    static long parse(String text, String what) {
        String value = text.trim();
        if (MILLIS.matcher(value).matches()) {
            return checkRange(parseMillis(value, what), what, text);
        }
        Matcher units = UNITS.matcher(value);
        if (units.matches()) {
            return checkRange(unitMillis(units, what, text), what, text);
        }
        if (isNegatedMillisOrUnits(value)) {
            throw new IllegalArgumentException("The " + what + " must not be negative: " + text);
        }
        if (!ISO.matcher(value).matches()) {
            throw new IllegalArgumentException("Invalid " + what + " '" + LogText.of(text) + "': use " + FORMS);
        }
        Duration duration;
        try {
            duration = Duration.parse(value.toUpperCase());
        } catch (RuntimeException e) {
            if (e.getCause() instanceof ArithmeticException) {
                // well formed, but beyond the seconds java.time.Duration holds
                throw tooLarge(what, text, e);
            }
            throw new IllegalArgumentException("Invalid " + what + " '" + LogText.of(text) + "': use " + FORMS, e);
        }
        try {
            return checkRange(duration.toMillis(), what, text);
        } catch (ArithmeticException e) {
            throw tooLarge(what, text, e);
        }
    }

    /**
     * Whether {@code value} is milliseconds or units (an accepted form) after a minus: a negative delay, refused as
     * such rather than as of another form, as a negative number, {@code Duration} or ISO-8601 text is.
     */
    private static boolean isNegatedMillisOrUnits(String value) {
        if (!value.startsWith("-")) {
            return false;
        }
        String magnitude = value.substring(1);
        return MILLIS.matcher(magnitude).matches() || UNITS.matcher(magnitude).matches();
    }

    /**
     * Parses a comma-separated list of delays, such as a retry schedule: empty when it holds no delay at all (only
     * commas); otherwise an empty entry (a stray comma, at either end too) is refused rather than skipped.
     *
     * @param  what                     names the list in the error message, e.g. "retrySchedule of queue orders"
     * @param  entryWhat                names an entry in the error message, e.g. "retrySchedule entry of queue orders"
     * @throws IllegalArgumentException when an entry is empty or no delay of an accepted form
     */
    static List<Long> parseList(String text, String what, String entryWhat) {
        if (text.replace(",", "").isBlank()) {
            return List.of();
        }
        String[] entries = text.split(",", -1);
        List<Long> delays = new ArrayList<>();
        for (int i = 0; i < entries.length; i++) {
            if (entries[i].isBlank()) {
                throw new IllegalArgumentException(
                        "Invalid " + what + " '" + text + "': entry " + (i + 1) + " is empty (of " + entries.length
                                                   + "); remove the stray comma or give the delay meant there, e.g. 1s,5s,30s");
            }
            delays.add(parse(entries[i], entryWhat));
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
            throw tooLarge(what, original, null);
        }
        return millis;
    }

    private static long parseMillis(String digits, String what) {
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException e) {
            throw tooLarge(what, digits, e);
        }
    }

    /** The sum of a matched unit form's amounts, each times its unit; too large when it does not fit a long. */
    private static long unitMillis(Matcher units, String what, String text) {
        long millis = 0;
        try {
            for (int unit = 0; unit < UNIT_MILLIS.length; unit++) {
                String amount = units.group(unit + 1);
                if (amount != null) {
                    millis = Math.addExact(millis, Math.multiplyExact(Long.parseLong(amount), UNIT_MILLIS[unit]));
                }
            }
        } catch (ArithmeticException | NumberFormatException e) {
            throw tooLarge(what, text, e);
        }
        return millis;
    }

    static IllegalArgumentException tooLarge(String what, Object original, Exception cause) {
        return new IllegalArgumentException(
                "The " + what + " " + original + " is too large; at most " + MAX_MILLIS + " ms", cause);
    }
}
