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
package io.github.camelredisdelay.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A consumer running in a JVM of its own ({@link ConsumerJvmMain}), started with this JVM's {@code java} and class
 * path, so a test can kill it as a crash would. Its output goes to a file under {@code target/faults-logs}.
 */
final class ConsumerJvm implements AutoCloseable {

    private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(15);
    /** The timeout of a consumer JVM's shutdown strategy unless a test sets another. */
    static final long DEFAULT_SHUTDOWN_TIMEOUT_SECONDS = 10;

    /**
     * How to start one.
     *
     * @param logKey          the Redis list its deliveries are noted in, unless {@code logFile} is set; its ready
     *                        signal goes to the set {@code <logKey>:ready} either way
     * @param endpointOptions query string of the consumer endpoint, e.g. {@code visibilityTimeout=2s}
     * @param workMillis      how long each exchange works
     * @param notesBodies     whether deliveries are noted under their bodies rather than their message ids
     * @param shutdownTimeout the timeout of its CamelContext's shutdown strategy, in seconds
     * @param plan            class name of the {@link DeliveryPlan} of its deliveries; empty: work {@code workMillis}
     *                        and succeed
     * @param logFile         the file its deliveries are noted in ({@link DeliveryLog#inFile}); empty: the list
     *                        {@code logKey}
     */
    record Options(String redisUrl, String keyPrefix, String queue, String logKey, String endpointOptions,
            long workMillis, boolean notesBodies, long shutdownTimeout, String plan, String logFile) {

        /** The same with another shutdown timeout, in seconds. */
        Options withShutdownTimeout(long seconds) {
            return new Options(
                    redisUrl, keyPrefix, queue, logKey, endpointOptions, workMillis, notesBodies, seconds, plan,
                    logFile);
        }

        /** The same with the deliveries following this {@link DeliveryPlan} class. */
        Options withPlan(Class<? extends DeliveryPlan> planClass) {
            return new Options(
                    redisUrl, keyPrefix, queue, logKey, endpointOptions, workMillis, notesBodies, shutdownTimeout,
                    planClass.getName(), logFile);
        }

        /** The same with the deliveries noted in this file rather than in Redis. */
        Options withLogFile(Path file) {
            return new Options(
                    redisUrl, keyPrefix, queue, logKey, endpointOptions, workMillis, notesBodies, shutdownTimeout, plan,
                    file.toString());
        }
    }

    private final Process process;
    private final Path output;
    private final String logKey;

    private ConsumerJvm(Process process, Path output, String logKey) {
        this.process = process;
        this.output = output;
        this.logKey = logKey;
    }

    /**
     * Starts a consumer JVM; returns without waiting for it to be ready (see {@link #awaitReady}).
     *
     * @param name used in the output file's name
     */
    static ConsumerJvm start(Options options, String name) {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> command = new ArrayList<>(
                List.of(java.toString(),
                        // small and quick to start: the machine is shared with other builds
                        "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                        // Log4j's own shutdown hook would end logging while the graceful stop still logs
                        "-Dlog4j.shutdownHookEnabled=false",
                        "-cp", System.getProperty("java.class.path"),
                        ConsumerJvmMain.class.getName(),
                        "--redisUrl=" + options.redisUrl(),
                        "--keyPrefix=" + options.keyPrefix(),
                        "--queue=" + options.queue(),
                        "--log=" + options.logKey(),
                        "--endpointOptions=" + options.endpointOptions(),
                        "--workMillis=" + options.workMillis(),
                        "--noteBodies=" + options.notesBodies(),
                        "--shutdownTimeout=" + options.shutdownTimeout(),
                        "--plan=" + options.plan(),
                        "--logFile=" + options.logFile()));
        Path output = FaultTestSupport.targetDir().resolve("faults-logs").resolve(name + ".log");
        try {
            Files.createDirectories(output.getParent());
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(output.toFile()).start();
            return new ConsumerJvm(process, output, options.logKey());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start a consumer JVM: " + command, e);
        }
    }

    long pid() {
        return process.pid();
    }

    /** The name its deliveries are noted under in the {@link DeliveryLog}. */
    String consumerName() {
        return "jvm-" + pid();
    }

    Path output() {
        return output;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Waits until its CamelContext has started; fails early, with its output, if it dies meanwhile. */
    ConsumerJvm awaitReady(RedissonClient redis, Duration atMost) {
        String pid = String.valueOf(pid());
        await("consumer JVM " + pid + " ready (output: " + output + ")").atMost(atMost)
                .pollInterval(Duration.ofMillis(100))
                .failFast("consumer JVM " + pid + " exited; its output: " + output, () -> !process.isAlive())
                .until(() -> redis.getSet(logKey + ":ready", StringCodec.INSTANCE).contains(pid));
        return this;
    }

    /**
     * Kills it with SIGKILL, as a crash would (no shutdown hook, no graceful stop), and checks that the process is
     * gone.
     */
    void kill() {
        long pid = pid();
        process.destroyForcibly();
        try {
            assertThat(process.waitFor(EXIT_TIMEOUT.toSeconds(), TimeUnit.SECONDS))
                    .as("consumer JVM %d exited after SIGKILL", pid).isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while killing consumer JVM " + pid, e);
        }
        assertThat(process.exitValue()).as("exit status of consumer JVM %d (128 + SIGKILL)", pid).isEqualTo(137);
        assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).as("process %d", pid).isEmpty();
    }

    /**
     * Stops it as Kubernetes does first (SIGTERM: its shutdown hook stops the CamelContext gracefully) and waits until
     * it exited, at most {@code atMost}; returns how long that took.
     */
    Duration terminate(Duration atMost) {
        long pid = pid();
        long started = System.nanoTime();
        // through the handle: Process.destroy also closes its standard input, which tells it that its parent is gone
        process.toHandle().destroy();
        try {
            assertThat(process.waitFor(atMost.toMillis(), TimeUnit.MILLISECONDS))
                    .as("consumer JVM %d exited within %s of SIGTERM (output: %s)", pid, atMost, output).isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while stopping consumer JVM " + pid, e);
        }
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        assertThat(process.exitValue()).as("exit status of consumer JVM %d (128 + SIGTERM)", pid).isEqualTo(143);
        return took;
    }

    /** Stops it gracefully if it runs (SIGTERM), and kills it if it does not exit in time. */
    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(EXIT_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(EXIT_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    @Override
    public String toString() {
        return "consumer JVM " + pid() + " (output: " + output + ")";
    }
}
