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
package io.github.camelredisdelay.embedded;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Polls a condition at a fixed interval until it holds, for at most a given time and number of polls. A condition that
 * throws (a node not answering yet, or a {@code LOADING} reply) counts as not yet.
 */
final class BoundedWait {

    private static final Duration POLL_INTERVAL = Duration.ofMillis(100);

    private BoundedWait() {
    }

    /**
     * Returns once {@code condition} holds.
     *
     * @param  what                  what is awaited, e.g. {@code "the cluster is formed"}, for the exception message
     * @param  state                 describes what was last seen, for the exception message
     * @throws IllegalStateException when it does not hold within {@code timeout}, or the wait is interrupted
     */
    static void until(String what, Duration timeout, BooleanSupplier condition, Supplier<String> state) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long maxPolls = Math.max(1, timeout.toMillis() / POLL_INTERVAL.toMillis());
        for (long poll = 0; poll <= maxPolls; poll++) {
            if (holds(condition)) {
                return;
            }
            if (System.nanoTime() >= deadline) {
                break;
            }
            pause(what);
        }
        throw new IllegalStateException(
                "Timed out after " + timeout.toMillis() + " ms waiting until " + what
                                        + "; last seen:\n" + describe(state));
    }

    private static boolean holds(BooleanSupplier condition) {
        try {
            return condition.getAsBoolean();
        } catch (IllegalStateException | UncheckedIOException notYet) {
            return false;
        }
    }

    private static String describe(Supplier<String> state) {
        try {
            return state.get();
        } catch (RuntimeException e) {
            return "(cannot tell: " + e + ")";
        }
    }

    private static void pause(String what) {
        try {
            Thread.sleep(POLL_INTERVAL.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting until " + what, e);
        }
    }
}
