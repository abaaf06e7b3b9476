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
