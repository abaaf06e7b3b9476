package io.github.camelredisdelay.embedded;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** Bounded waits for a process to end. An interrupted wait returns false and keeps the interrupt flag. */
final class ProcessExit {

    private ProcessExit() {
    }

    /** Waits up to {@code timeout}; true when the process has ended. */
    static boolean await(Process process, Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Sends SIGKILL and waits up to {@code timeout}; true when the process has ended. */
    static boolean kill(Process process, Duration timeout) {
        process.destroyForcibly();
        return await(process, timeout);
    }
}
