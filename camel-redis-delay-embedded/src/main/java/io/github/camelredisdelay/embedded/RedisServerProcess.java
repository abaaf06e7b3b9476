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
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.IntSupplier;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A private {@code redis-server} process on a loopback port with its own temporary directory, for tests, the example
 * and benchmarks. Fault tests can {@link #stop()}, {@link #kill()} and {@link #restart()} it; with
 * {@link RedisServerOptions#appendOnly()} the data survives a restart.
 *
 * <p>
 * A JVM shutdown hook kills this process (by its handle, never by name) if the JVM exits without {@link #close()}.
 * Nothing can do that when the JVM itself is killed with SIGKILL.
 */
public final class RedisServerProcess implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RedisServerProcess.class);

    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration HOOK_EXIT_TIMEOUT = Duration.ofSeconds(2);
    private static final int LAUNCH_ATTEMPTS = 5;
    private static final Duration LAUNCH_RETRY_PAUSE = Duration.ofMillis(200);
    private static final String CONFIG_FILE_NAME = "redis.conf";

    private final RedisBinary binary;
    private final RedisServerOptions options;
    private final Path dir;
    /** The configuration file given to every launch, or null when it runs on arguments alone. */
    private final Path configFile;
    private final int port;
    private final Thread exitHook;
    private volatile Process process;
    private boolean closed;

    private RedisServerProcess(RedisBinary binary, RedisServerOptions options, Path dir, Path configFile,
                               Launched launched) {
        this.binary = binary;
        this.options = options;
        this.dir = dir;
        this.configFile = configFile;
        this.port = launched.port();
        this.process = launched.process();
        this.exitHook = new Thread(this::killOnJvmExit, "redis-server-" + port + "-exit-hook");
        Runtime.getRuntime().addShutdownHook(exitHook);
    }

    /**
     * Starts {@code redis-server} and returns once it answers {@code PING}.
     *
     * @throws IllegalStateException when it does not start; the message ends with the tail of its log
     */
    public static RedisServerProcess start(RedisBinary binary, RedisServerOptions options) {
        Path dir = createTempDir();
        return startIn(dir, binary, options, null);
    }

    /**
     * Starts {@code redis-server} with a configuration file and returns once it answers {@code PING}. The lines are
     * written to {@code redis.conf} in the server's own directory, which is given as the first argument to this and
     * every later launch; the server may rewrite that file, as Sentinel does to keep its state. The arguments of
     * {@code options} come after it and win. A Sentinel, for example, is
     * {@code start(binary, RedisServerOptions.defaults().withExtraArgs("--sentinel"), List.of("sentinel monitor
     * ..."))}.
     *
     * @throws IllegalStateException when it does not start; the message ends with the tail of its log
     */
    public static RedisServerProcess start(RedisBinary binary, RedisServerOptions options, List<String> configLines) {
        Path dir = createTempDir();
        Path configFile = dir.resolve(CONFIG_FILE_NAME);
        try {
            Files.write(configFile, configLines);
        } catch (IOException e) {
            deleteRecursively(dir);
            throw new UncheckedIOException("Cannot write " + configFile, e);
        }
        return startIn(dir, binary, options, configFile);
    }

    private static RedisServerProcess startIn(
            Path dir, RedisBinary binary, RedisServerOptions options,
            Path configFile) {
        try {
            IntSupplier ports = () -> options.port() != 0 ? options.port() : freePort();
            Launched launched = launch(binary, options, configFile, dir, ports);
            RedisServerProcess server = new RedisServerProcess(binary, options, dir, configFile, launched);
            LOG.info("Started {}", server);
            return server;
        } catch (RuntimeException e) {
            deleteRecursively(dir);
            throw e;
        }
    }

    /** Always {@code 127.0.0.1}: the server listens on loopback only. */
    public String host() {
        return ServerLaunch.HOST;
    }

    /** The port it listens on; the same after {@link #restart()}. */
    public int port() {
        return port;
    }

    /** {@code redis://127.0.0.1:<port>}. */
    public String uri() {
        return "redis://" + host() + ":" + port;
    }

    /** The process id of the current (or last) server process; a restart changes it. */
    public long pid() {
        return process.pid();
    }

    /** The private working directory, holding the log and the append-only file; deleted by {@link #close()}. */
    public Path directory() {
        return dir;
    }

    /** The server's {@code redis_version}, such as {@code 7.0.15}. */
    public String version() {
        return Info.field(command("INFO", "server"), "redis_version")
                .orElseThrow(() -> new IllegalStateException("No redis_version in INFO server of " + this));
    }

    /** The server's clock ({@code TIME}), epoch ms: the clock its scripts schedule by. */
    public long timeMillis() {
        String[] time = command("TIME").split("\n");
        return Long.parseLong(time[0]) * 1_000 + Long.parseLong(time[1]) / 1_000;
    }

    /** Whether the server process is alive. */
    public boolean isRunning() {
        return process.isAlive();
    }

    /**
     * Sends one command on a fresh connection, e.g. {@code command("CONFIG", "SET", "maxclients", "1")}, and returns
     * the reply as text: simple strings, integers and bulk strings as they are, nil as {@code null}, arrays as their
     * elements joined by newlines.
     *
     * @throws IllegalStateException with Redis' text when it replies with an error
     * @throws UncheckedIOException  when the server cannot be reached or closes the connection
     */
    public String command(String... args) {
        if (args.length == 0) {
            throw new IllegalArgumentException("A command needs at least its name");
        }
        try {
            return Resp.call(host(), port, COMMAND_TIMEOUT, args);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot send " + args[0] + " to " + this, e);
        }
    }

    /**
     * Shuts the server down gracefully and waits for it to exit: {@code SHUTDOWN} with an append-only file so it is
     * flushed, {@code SHUTDOWN NOSAVE} otherwise. Falls back to SIGKILL if it does not exit in time. Does nothing when
     * it is not running.
     */
    public synchronized void stop() {
        Process current = process;
        if (!current.isAlive()) {
            return;
        }
        try {
            Resp.call(host(), port, COMMAND_TIMEOUT,
                    options.appendOnly() ? new String[] { "SHUTDOWN" } : new String[] { "SHUTDOWN", "NOSAVE" });
        } catch (IOException expected) {
            // A successful SHUTDOWN closes the connection instead of replying.
        } catch (IllegalStateException refused) {
            LOG.warn("{} refused SHUTDOWN, killing it: {}", this, refused.getMessage());
        }
        if (!ProcessExit.await(current, EXIT_TIMEOUT)) {
            LOG.warn("{} did not exit within {} s of SHUTDOWN, killing it", this, EXIT_TIMEOUT.toSeconds());
            requireKilled(current);
        }
    }

    /** Kills the server with SIGKILL, as a crash would, and waits for it to exit. */
    public synchronized void kill() {
        requireKilled(process);
    }

    /**
     * Starts the server again on the same port and directory, so an append-only file is reloaded; stops it first if it
     * is still running. Returns once it answers {@code PING}.
     *
     * @throws IllegalStateException when it does not come back, or after {@link #close()}
     */
    public synchronized void restart() {
        if (closed) {
            throw new IllegalStateException("Cannot restart " + this + ": it is closed");
        }
        stop();
        process = launch(binary, options, configFile, dir, () -> port).process();
        LOG.info("Restarted {}", this);
    }

    /** Stops the server if it is running and deletes its directory. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            stop();
        } finally {
            removeExitHook();
            deleteRecursively(dir);
        }
    }

    @Override
    public String toString() {
        return "redis-server " + binary + " on port " + port + " (pid " + process.pid() + ")";
    }

    /**
     * Tries a few times: a free port can be taken between choosing and binding it, and a restarted server's port can
     * still be held for a moment.
     */
    private static Launched launch(
            RedisBinary binary, RedisServerOptions options, Path configFile, Path dir,
            IntSupplier ports) {
        int port = 0;
        for (int attempt = 1; attempt <= LAUNCH_ATTEMPTS; attempt++) {
            port = ports.getAsInt();
            Optional<Process> started = ServerLaunch.tryStart(binary, options, configFile, port, dir);
            if (started.isPresent()) {
                return new Launched(port, started.get());
            }
            LOG.info("Port {} is in use (attempt {} of {})", port, attempt, LAUNCH_ATTEMPTS);
            if (attempt < LAUNCH_ATTEMPTS) {
                pauseBeforeRetry();
            }
        }
        throw new IllegalStateException(
                "redis-server " + binary + " found its port in use " + LAUNCH_ATTEMPTS
                                        + " times in a row (last: " + port + ")");
    }

    private static void pauseBeforeRetry() {
        try {
            Thread.sleep(LAUNCH_RETRY_PAUSE.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while retrying to start redis-server", e);
        }
    }

    private void requireKilled(Process current) {
        if (!ProcessExit.kill(current, EXIT_TIMEOUT)) {
            throw new IllegalStateException(
                    this + " did not exit within " + EXIT_TIMEOUT.toSeconds()
                                            + " s of SIGKILL");
        }
    }

    private void killOnJvmExit() {
        Process current = process;
        if (current.isAlive()) {
            ProcessExit.kill(current, HOOK_EXIT_TIMEOUT);
        }
        deleteRecursively(dir);
    }

    private void removeExitHook() {
        try {
            Runtime.getRuntime().removeShutdownHook(exitHook);
        } catch (IllegalStateException shuttingDown) {
            // The JVM is already exiting; the hook kills the process anyway.
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(ServerLaunch.HOST))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot find a free port on " + ServerLaunch.HOST, e);
        }
    }

    private static Path createTempDir() {
        try {
            return Files.createTempDirectory("redis-server-");
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create a directory for redis-server", e);
        }
    }

    private static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            LOG.warn("Cannot delete {}: {}", dir, e.toString());
        }
    }

    private record Launched(int port, Process process) {
    }
}
