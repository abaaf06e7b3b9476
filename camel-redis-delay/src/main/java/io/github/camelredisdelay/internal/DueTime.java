package io.github.camelredisdelay.internal;

/**
 * When a message becomes due: after a delay from Redis' now, or at an absolute time.
 *
 * @param absolute {@code true} when {@code millis} is an epoch time, {@code false} when it is a delay
 * @param millis   a non-negative delay or epoch time in milliseconds
 */
public record DueTime(boolean absolute, long millis) {

    public static DueTime after(long delayMillis) {
        return new DueTime(false, delayMillis);
    }

    public static DueTime at(long epochMillis) {
        return new DueTime(true, epochMillis);
    }
}
