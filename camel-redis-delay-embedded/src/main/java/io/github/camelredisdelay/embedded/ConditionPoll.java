package io.github.camelredisdelay.embedded;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Polls a condition until it holds, a bounded number of times within a bounded time. A probe that throws (the
 * server does not answer yet, or answers with an error) counts as "not yet"; the last such failure is named when
 * the wait gives up.
 */
final class ConditionPoll {

    private ConditionPoll() {
    }

    /**
     * Returns once {@code condition} is true.
     *
     * @param what     what is awaited, for the exception message
     * @throws IllegalStateException when it is still false after {@code timeout}, or when interrupted
     */
    static void until(String what, Duration timeout, Duration interval, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long maxPolls = Math.max(1, timeout.toMillis() / Math.max(1, interval.toMillis()));
        RuntimeException lastFailure = null;
        for (long poll = 0; poll < maxPolls && System.nanoTime() < deadline; poll++) {
            try {
                if (condition.getAsBoolean()) {
                    return;
                }
            } catch (UncheckedIOException | IllegalStateException notYet) {
                lastFailure = notYet;
            }
            pause(what, interval);
        }
        throw new IllegalStateException("Gave up waiting for " + what + " after " + timeout.toMillis() + " ms"
                + (lastFailure == null ? "" : "; last probe failed with " + lastFailure), lastFailure);
    }

    private static void pause(String what, Duration interval) {
        try {
            Thread.sleep(interval.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for " + what, e);
        }
    }
}
