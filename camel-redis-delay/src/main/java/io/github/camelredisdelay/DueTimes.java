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

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.util.Calendar;
import java.util.Date;
import java.util.regex.Pattern;

import io.github.camelredisdelay.internal.DueTime;
import org.apache.camel.Message;

/**
 * Decides when a scheduled message is due: the {@code CamelRedisDelayDueAt} header wins, then the
 * {@code CamelRedisDelayDelay} header, then the endpoint's {@code delay} option.
 */
final class DueTimes {

    /** A number of milliseconds written out: a delay or an epoch time. */
    private static final Pattern WHOLE_NUMBER = Pattern.compile("-?\\d+");
    private static final long MILLIS_PER_YEAR = Duration.ofDays(365).toMillis();
    /** Epoch seconds of 2001-09-09, the first ten-digit ones. */
    private static final long SECONDS_FROM = 1_000_000_000L;
    /** Epoch seconds of 2286-11-20, the first eleven-digit ones. */
    private static final long SECONDS_UNTIL = 10_000_000_000L;
    /** Epoch milliseconds of 2001-09-09, the first thirteen-digit ones; as a delay, 31.7 years. */
    private static final long MILLIS_FROM = SECONDS_FROM * 1_000L;
    /** Epoch milliseconds of 2286-11-20, the first fourteen-digit ones. */
    private static final long MILLIS_UNTIL = SECONDS_UNTIL * 1_000L;
    /** Epoch microseconds of 2001-09-09, the first sixteen-digit ones. */
    private static final long MICROS_FROM = SECONDS_FROM * 1_000_000L;
    /** Epoch microseconds of 2286-11-20, the first seventeen-digit ones. */
    private static final long MICROS_UNTIL = SECONDS_UNTIL * 1_000_000L;

    private DueTimes() {
    }

    static DueTime resolve(Message message, long defaultDelay, String queue) {
        Object dueAt = message.getHeader(RedisDelayConstants.DUE_AT);
        if (dueAt != null) {
            // any time in the past, before 1970 too, means due now
            long millis = Math.max(0, epochMillis(dueAt, queue));
            return DueTime
                    .at(Durations.checkRange(millis, "due time (header " + RedisDelayConstants.DUE_AT + ") of queue " + queue,
                            dueAt));
        }
        Object delay = message.getHeader(RedisDelayConstants.DELAY);
        if (delay != null) {
            return DueTime.after(delayMillis(delay, queue));
        }
        return DueTime.after(defaultDelay);
    }

    private static long delayMillis(Object delay, String queue) {
        String what = "delay (header " + RedisDelayConstants.DELAY + ") of queue " + queue;
        if (delay instanceof Duration duration) {
            if (duration.isNegative()) {
                throw new IllegalArgumentException("The " + what + " must not be negative: " + duration);
            }
            try {
                return Durations.checkRange(duration.toMillis(), what, duration);
            } catch (ArithmeticException e) {
                throw Durations.tooLarge(what, duration, e);
            }
        }
        if (delay instanceof Number number) {
            return notEpochMillis(Durations.checkRange(wholeMillis(number, what), what, number), what);
        }
        if (delay instanceof CharSequence text) {
            long millis = Durations.parse(text.toString(), what);
            return WHOLE_NUMBER.matcher(text.toString().trim()).matches() ? notEpochMillis(millis, what) : millis;
        }
        throw new IllegalArgumentException(
                "Unsupported " + what + " '" + delay + "' of type " + delay.getClass().getName()
                                           + ": use milliseconds (long), a java.time.Duration or a string such as 30m, 1h30m or PT5S");
    }

    /**
     * Refuses a number of milliseconds given as a delay that is a time of this century in epoch milliseconds
     * ({@value #MILLIS_FROM} to {@value #MILLIS_UNTIL}, 2001 to 2286): as a delay it is 31.7 to 317 years, which would
     * keep the message for ever; it is a due time put in the delay header or the delay option.
     */
    static long notEpochMillis(long millis, String what) {
        if (millis >= MILLIS_FROM && millis < MILLIS_UNTIL) {
            throw new IllegalArgumentException(
                    "The " + what + " is " + millis + " ms (" + millis / MILLIS_PER_YEAR + " years), which as epoch "
                                               + "milliseconds is " + Instant.ofEpochMilli(millis)
                                               + ": it looks like a due time; give that in header "
                                               + RedisDelayConstants.DUE_AT + ", or a delay of less than "
                                               + MILLIS_FROM + " ms (31.7 years)");
        }
        return millis;
    }

    private static long epochMillis(Object dueAt, String queue) {
        String what = "header " + RedisDelayConstants.DUE_AT + " of queue " + queue;
        if (dueAt instanceof Number number) {
            return notEpochSecondsOrMicros(wholeMillis(number, what), what);
        }
        if (dueAt instanceof Instant instant) {
            return millisOf(instant);
        }
        if (dueAt instanceof Date date) {
            return date.getTime();
        }
        if (dueAt instanceof ZonedDateTime time) {
            return millisOf(time.toInstant());
        }
        if (dueAt instanceof OffsetDateTime time) {
            return millisOf(time.toInstant());
        }
        if (dueAt instanceof Calendar calendar) {
            return calendar.getTimeInMillis();
        }
        if (dueAt instanceof CharSequence text) {
            return parseEpoch(text.toString().trim(), what);
        }
        throw new IllegalArgumentException(
                "Unsupported " + what + " '" + dueAt + "' of type " + dueAt.getClass().getName()
                                           + ": use epoch milliseconds (long), Instant, Date, ZonedDateTime, OffsetDateTime, Calendar "
                                           + "or a string of epoch milliseconds or an ISO-8601 instant");
    }

    /**
     * Refuses a number of epoch milliseconds that is a time of this century in epoch seconds ({@value #SECONDS_FROM} to
     * {@value #SECONDS_UNTIL}, 2001 to 2286) or in epoch microseconds ({@value #MICROS_FROM} to
     * {@value #MICROS_UNTIL}): as milliseconds the first is a time between January and April 1970, which would make the
     * message due at once, the second a time after the year 33,000, which would keep it for ever; no schedule means
     * either.
     */
    private static long notEpochSecondsOrMicros(long millis, String what) {
        if (millis >= SECONDS_FROM && millis < SECONDS_UNTIL) {
            throw misreadUnit(millis, what, "be due at once", "seconds", Math.multiplyExact(millis, 1000L));
        }
        if (millis >= MICROS_FROM && millis < MICROS_UNTIL) {
            throw misreadUnit(millis, what, "never be delivered", "microseconds", millis / 1000L);
        }
        return millis;
    }

    private static IllegalArgumentException misreadUnit(long millis, String what, String effect, String unit, long meant) {
        return new IllegalArgumentException(
                "The " + what + " is " + millis + ", which as epoch milliseconds is " + Instant.ofEpochMilli(millis)
                                            + " and would " + effect + "; it looks like epoch " + unit
                                            + ": give epoch milliseconds (" + meant
                                            + "), an Instant or an ISO-8601 instant");
    }

    /**
     * Epoch milliseconds of an instant; one beyond what a long holds gives the long's bound on its side, which the
     * range check rejects (the future) or makes due now (the past).
     */
    private static long millisOf(Instant instant) {
        try {
            return instant.toEpochMilli();
        } catch (ArithmeticException e) {
            return instant.isBefore(Instant.EPOCH) ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    private static long parseEpoch(String text, String what) {
        try {
            if (WHOLE_NUMBER.matcher(text).matches()) {
                // more digits than a long holds: its bound on that side, as for an instant
                BigInteger millis = new BigInteger(text);
                return millis.bitLength() < Long.SIZE ? notEpochSecondsOrMicros(millis.longValue(), what)
                        : millis.signum() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
            }
            return millisOf(Instant.parse(text));
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(
                    "Invalid " + what + " '" + text
                                               + "': use epoch milliseconds or an ISO-8601 instant such as 2030-01-01T09:00:00Z",
                    e);
        }
    }

    private static long wholeMillis(Number number, String what) {
        if (number instanceof Double || number instanceof Float) {
            double value = number.doubleValue();
            if (value != Math.rint(value) || Double.isInfinite(value)) {
                throw notWhole(number, what);
            }
        }
        try {
            if (number instanceof BigDecimal decimal) {
                return decimal.longValueExact();
            }
            if (number instanceof BigInteger integer) {
                return integer.longValueExact();
            }
        } catch (ArithmeticException e) {
            throw notWhole(number, what);
        }
        return number.longValue();
    }

    private static IllegalArgumentException notWhole(Number number, String what) {
        return new IllegalArgumentException(
                "The " + what + " must be a whole number of milliseconds within the range of "
                                            + "a long: " + number);
    }
}
