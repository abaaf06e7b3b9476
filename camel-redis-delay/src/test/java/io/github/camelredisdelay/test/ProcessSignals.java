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
package io.github.camelredisdelay.test;

import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.embedded.RedisServerProcess;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Stops a private redis-server with SIGSTOP (it keeps its connections and answers nothing) and lets it go on. The
 * signal is sent by {@code /bin/sh}'s built-in {@code kill}, so no {@code kill} executable (procps) is needed on
 * {@code PATH}.
 */
public final class ProcessSignals {

    private ProcessSignals() {
    }

    /** Sends SIGSTOP: the server keeps its connections open and answers nothing until {@link #resume}. */
    public static void pause(RedisServerProcess server) throws Exception {
        signal(server, "STOP");
    }

    /** Sends SIGCONT to a server {@link #pause}d. */
    public static void resume(RedisServerProcess server) throws Exception {
        signal(server, "CONT");
    }

    private static void signal(RedisServerProcess server, String signal) throws Exception {
        Process kill = new ProcessBuilder("/bin/sh", "-c", "kill -" + signal + " " + server.pid()).inheritIO().start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(kill.exitValue()).isZero();
    }
}
