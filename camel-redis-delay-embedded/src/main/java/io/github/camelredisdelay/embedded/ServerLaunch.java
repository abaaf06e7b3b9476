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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Runs {@code redis-server} once on a given port and directory and waits until it answers. */
final class ServerLaunch {

    static final String HOST = "127.0.0.1";

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration POLL_INTERVAL = Duration.ofMillis(50);
    private static final Duration PROBE_TIMEOUT = Duration.ofMillis(500);
    private static final Duration KILL_TIMEOUT = Duration.ofSeconds(5);
    private static final String PORT_TAKEN = "Address already in use";

    private ServerLaunch() {
    }

    /**
     * Starts the server and returns it once it answers {@code PING}, or empty when the port was taken so the caller can
     * try again.
     *
     * @param  configFile            given as the first argument, where {@code redis-server} wants it; null for none
     * @throws IllegalStateException when it exits for another reason or does not answer within 10 s; the message ends
     *                               with the tail of its log and console
     */
    static Optional<Process> tryStart(
            RedisBinary binary, RedisServerOptions options, Path configFile, int port,
            Path dir) {
        Path logFile = dir.resolve("redis.log");
        Path consoleFile = dir.resolve("redis.console");
        LaunchOutput output = LaunchOutput.mark(logFile, consoleFile);
        Process process;
        try {
            ProcessBuilder builder = new ProcessBuilder(commandLine(binary, options, configFile, port, dir, logFile))
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(consoleFile.toFile()));
            builder.environment().putAll(options.environment());
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot run " + binary, e);
        }
        return awaitReady(process, binary, port, output);
    }

    private static List<String> commandLine(
            RedisBinary binary, RedisServerOptions options, Path configFile,
            int port, Path dir, Path logFile) {
        List<String> command = new ArrayList<>();
        command.add(binary.path().toString());
        if (configFile != null) {
            command.add(configFile.toString());
        }
        command.addAll(List.of(
                "--port", String.valueOf(port),
                "--bind", HOST,
                "--dir", dir.toString(),
                "--daemonize", "no",
                "--protected-mode", "no",
                "--save", "",
                "--appendonly", options.appendOnly() ? "yes" : "no",
                "--appendfsync", "everysec",
                "--logfile", logFile.toString()));
        command.addAll(options.extraArgs());
        return command;
    }

    private static Optional<Process> awaitReady(Process process, RedisBinary binary, int port, LaunchOutput output) {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        long maxPolls = READY_TIMEOUT.toMillis() / POLL_INTERVAL.toMillis();
        for (long poll = 0; poll < maxPolls && System.nanoTime() < deadline; poll++) {
            if (!process.isAlive()) {
                if (output.mentions(PORT_TAKEN)) {
                    return Optional.empty();
                }
                throw failure(binary, port, "exited with code " + process.exitValue(), output);
            }
            if (answersAsItself(process, port)) {
                return Optional.of(process);
            }
            pause(process);
        }
        ProcessExit.kill(process, KILL_TIMEOUT);
        throw failure(binary, port, "did not answer PING within " + READY_TIMEOUT.toSeconds() + " s", output);
    }

    /**
     * True once the server answers PING and reports our process id: a PONG from the port alone could come from another
     * server that holds it while ours is about to fail its bind.
     */
    private static boolean answersAsItself(Process process, int port) {
        try {
            return "PONG".equals(Resp.call(HOST, port, PROBE_TIMEOUT, "PING"))
                    && Info.field(Resp.call(HOST, port, PROBE_TIMEOUT, "INFO", "server"), "process_id")
                            .filter(String.valueOf(process.pid())::equals)
                            .isPresent();
        } catch (IOException | IllegalStateException notYet) {
            // Not listening yet, or still loading the append-only file (a LOADING error reply).
            return false;
        }
    }

    private static void pause(Process process) {
        try {
            Thread.sleep(POLL_INTERVAL.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ProcessExit.kill(process, KILL_TIMEOUT);
            throw new IllegalStateException("Interrupted while waiting for redis-server to start", e);
        }
    }

    private static IllegalStateException failure(RedisBinary binary, int port, String what, LaunchOutput output) {
        return new IllegalStateException(
                "redis-server " + binary + " on port " + port + " " + what + "\n" + output.tail());
    }
}
