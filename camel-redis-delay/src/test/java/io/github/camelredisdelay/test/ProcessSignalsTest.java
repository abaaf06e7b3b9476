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

import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import io.github.camelredisdelay.embedded.RedisBinary;
import io.github.camelredisdelay.embedded.RedisServerOptions;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The tests that pause Redis run on a machine with only a JDK and Maven too: one whose {@code PATH} has no {@code kill}
 * executable (procps is not installed in minimal systems and containers), as {@code mvn -B verify} promises.
 */
class ProcessSignalsTest {

    /** How long a PING to the paused server waits for its reply: a stopped process never sends one. */
    private static final Duration PATIENCE = Duration.ofSeconds(2);

    @Test
    void pausedServerAnswersNothingUntilResumed() throws Exception {
        try (RedisServerProcess server = RedisServerProcess.start(
                RedisBinary.select(System.getProperty(RedisServerExtension.BINARY_PROPERTY, RedisBinary.PATH_CHOICE)),
                RedisServerOptions.defaults())) {
            ProcessSignals.pause(server);
            try {
                assertThat(answersPing(server, PATIENCE)).as("the paused server answered a PING within %s", PATIENCE)
                        .isFalse();
            } finally {
                ProcessSignals.resume(server);
            }
            assertThat(server.command("PING")).isEqualTo("PONG");
        }
    }

    /**
     * Sends {@code PING} on a connection of its own (the kernel accepts it for a stopped process too) and waits at most
     * {@code patience} for the first byte of a reply.
     */
    private static boolean answersPing(RedisServerProcess server, Duration patience) throws IOException {
        try (Socket socket = new Socket(server.host(), server.port())) {
            socket.setSoTimeout((int) patience.toMillis());
            socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            return socket.getInputStream().read() != -1;
        } catch (SocketTimeoutException e) {
            return false;
        }
    }
}
