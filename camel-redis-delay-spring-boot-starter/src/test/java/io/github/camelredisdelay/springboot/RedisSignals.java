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
package io.github.camelredisdelay.springboot;

import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.embedded.RedisServerProcess;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Signals to a test server's process: a paused server keeps its connections open and answers nothing, as a Redis in a
 * long fork or behind a path that drops packets does. They are sent by {@code /bin/sh}'s built-in {@code kill}, so no
 * {@code kill} executable (procps) is needed on {@code PATH}.
 */
final class RedisSignals {

    private RedisSignals() {
    }

    /** Sends SIGSTOP: the server answers nothing until {@link #resume}d. */
    static void pause(RedisServerProcess server) {
        assertThat(signal(server, "STOP")).as("SIGSTOP sent to %s", server).isZero();
    }

    /** Sends SIGCONT to a server that may be paused; nothing happens to one that is not running. */
    static void resume(RedisServerProcess server) {
        signal(server, "CONT");
    }

    private static int signal(RedisServerProcess server, String signal) {
        try {
            Process kill = new ProcessBuilder("/bin/sh", "-c", "kill -" + signal + " " + server.pid()).inheritIO()
                    .start();
            assertThat(kill.waitFor(10, TimeUnit.SECONDS)).as("kill -%s returned", signal).isTrue();
            return kill.exitValue();
        } catch (Exception e) {
            throw new IllegalStateException("Could not send SIG" + signal + " to " + server, e);
        }
    }
}
