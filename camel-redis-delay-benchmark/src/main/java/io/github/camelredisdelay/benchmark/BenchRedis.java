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
package io.github.camelredisdelay.benchmark;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.camelredisdelay.embedded.RedisBinary;
import io.github.camelredisdelay.embedded.RedisServerOptions;
import io.github.camelredisdelay.embedded.RedisServerProcess;

/**
 * The private redis-server both sides run against, and what the benchmark reads from it: command statistics, memory,
 * CPU, stalls. Probes go over their own short connections (see {@link RedisServerProcess#command}), so they never queue
 * behind the clients under test; {@link CommandStats} leaves the probe commands out of its counts.
 * <p>
 * RDelayedQueue's transfer scripts can keep the server busy for many seconds, even after its run ended (each LREM scans
 * a long list, and Redisson sends timed-out scripts again), so every probe waits out a stall, for as long as its
 * {@code patience}.
 */
final class BenchRedis implements AutoCloseable {

    /** Commands slower than this are counted as stalls (SLOWLOG). */
    static final int STALL_MICROS = 10_000;
    /** For what must succeed before a run can start, such as emptying the server. */
    static final Duration PATIENT = Duration.ofSeconds(180);
    /** For reading statistics after a run: a stalled server then means they are unknown. */
    static final Duration BRIEF = Duration.ofSeconds(20);

    private static final Pattern INTEGER = Pattern.compile("\\d+");
    private static final Pattern CLIENT_ADDRESS = Pattern.compile("[0-9.]+:\\d+|\\[[0-9a-f:]+]:\\d+");
    /** A bucket of a due set: {@code <due>:<name>}. */
    private static final Pattern DUE_BUCKET = Pattern.compile("(.*:due):\\d+(?:\\.\\d+)?");
    private static final int SLOWEST_SHOWN = 3;

    private final RedisServerProcess process;

    private BenchRedis(RedisServerProcess process) {
        this.process = process;
    }

    /** No persistence (no append-only file, no RDB snapshots), so disk never disturbs a measurement. */
    static BenchRedis start(String binaryChoice) {
        RedisServerOptions options = RedisServerOptions.defaults()
                .withAppendOnly(false)
                .withExtraArgs("--save", "",
                        "--slowlog-log-slower-than", String.valueOf(STALL_MICROS),
                        "--slowlog-max-len", "10000",
                        "--latency-monitor-threshold", "1");
        return new BenchRedis(RedisServerProcess.start(RedisBinary.select(binaryChoice), options));
    }

    String uri() {
        return process.uri();
    }

    int port() {
        return process.port();
    }

    String version() {
        return process.version();
    }

    String command(String... args) {
        return command(PATIENT, args);
    }

    /**
     * Sends one command, retrying while the server is stalled (no reply in time, or BUSY) for up to {@code patience}.
     */
    String command(Duration patience, String... args) {
        long deadline = System.nanoTime() + patience.toNanos();
        while (true) {
            try {
                return process.command(args);
            } catch (UncheckedIOException | IllegalStateException e) {
                boolean stalled = e instanceof UncheckedIOException || String.valueOf(e.getMessage()).contains("BUSY");
                if (!stalled || System.nanoTime() - deadline > 0) {
                    throw e;
                }
                Bench.log("redis-server does not answer %s (%s); waiting", args[0], e.getMessage());
                Bench.pause(Duration.ofSeconds(1));
            }
        }
    }

    /** Empties every database and forgets the stalls seen so far: the start of every measured run. */
    void reset() {
        // a harmless command first: if it has to wait out a stall, the FLUSHALL is not sent twice
        command("PING");
        command("FLUSHALL");
        resetStalls();
    }

    void resetStalls() {
        command("SLOWLOG", "RESET");
        command("LATENCY", "RESET");
    }

    CommandStats commandStats(Duration patience) {
        return CommandStats.parse(command(patience, "INFO", "commandstats"));
    }

    String info(String section, Duration patience) {
        return command(patience, "INFO", section);
    }

    /** A numeric field of {@code INFO memory}, e.g. {@code used_memory}. */
    long memory(String field) {
        return infoField(command("INFO", "memory"), field).map(Long::parseLong)
                .orElseThrow(() -> new IllegalStateException("INFO memory has no " + field));
    }

    /**
     * Every key of the database with its exact size ({@code MEMORY USAGE key SAMPLES 0}); the buckets of a due set
     * ({@code <due>:<name>}) are summed under {@code <due>:*}, with their number.
     */
    Map<String, Long> keySizes() {
        Map<String, Long> sizes = new LinkedHashMap<>();
        String cursor = "0";
        do {
            String[] reply = command("SCAN", cursor, "COUNT", "1000").split("\n");
            cursor = reply[0];
            for (int i = 1; i < reply.length; i++) {
                if (!reply[i].isEmpty()) {
                    long size = Long.parseLong(command("MEMORY", "USAGE", reply[i], "SAMPLES", "0"));
                    Matcher bucket = DUE_BUCKET.matcher(reply[i]);
                    if (bucket.matches()) {
                        sizes.merge(bucket.group(1) + ":*", size, Long::sum);
                        sizes.merge(bucket.group(1) + ":* (keys)", 1L, Long::sum);
                    } else {
                        sizes.put(reply[i], size);
                    }
                }
            }
        } while (!cursor.equals("0"));
        return sizes;
    }

    /** Stalls since the last {@link #resetStalls()}. */
    Stalls stalls(Duration patience) {
        long count = Long.parseLong(command(patience, "SLOWLOG", "LEN"));
        return new Stalls(
                count, worstCommandMillis(command(patience, "LATENCY", "LATEST")),
                slowest(command(patience, "SLOWLOG", "GET", "128")));
    }

    long length(String type, String key) {
        return Long.parseLong(command(type.equals("stream") ? "XLEN" : "LLEN", key));
    }

    /**
     * {@code LATENCY LATEST} is an array of {event, time, latest ms, max ms} per event; the "command" event covers
     * every slow command, scripts included.
     */
    private static long worstCommandMillis(String latest) {
        if (latest == null || latest.isBlank()) {
            return 0;
        }
        String[] lines = latest.split("\n");
        long worst = 0;
        for (int i = 0; i + 3 < lines.length; i += 4) {
            if (lines[i].equals("command") || lines[i].equals("fast-command")) {
                worst = Math.max(worst, Long.parseLong(lines[i + 3].trim()));
            }
        }
        return worst;
    }

    /**
     * The slowest entries of a {@code SLOWLOG GET} reply as "ms command arg1 arg2". The reply arrives flattened into
     * lines, so an entry is found by its shape: id, unix time and µs (three integers), then the command and its
     * arguments up to the client's address.
     */
    private static List<String> slowest(String slowlog) {
        List<long[]> positions = new ArrayList<>();
        String[] lines = slowlog == null ? new String[0] : slowlog.split("\n");
        for (int i = 0; i + 3 < lines.length; i++) {
            if (INTEGER.matcher(lines[i]).matches() && lines[i + 1].length() == 10
                    && INTEGER.matcher(lines[i + 1]).matches() && INTEGER.matcher(lines[i + 2]).matches()) {
                positions.add(new long[] { i, Long.parseLong(lines[i + 2]) });
                i += 3;
            }
        }
        positions.sort(Comparator.comparingLong((long[] entry) -> entry[1]).reversed());
        List<String> entries = new ArrayList<>();
        for (long[] entry : positions.subList(0, Math.min(SLOWEST_SHOWN, positions.size()))) {
            StringBuilder text = new StringBuilder().append(entry[1] / 1000).append(" ms");
            for (int i = (int) entry[0] + 3, shown = 0; i < lines.length && shown < 4
                    && !CLIENT_ADDRESS.matcher(lines[i]).matches(); i++, shown++) {
                text.append(' ').append(lines[i], 0, Math.min(60, lines[i].length()));
            }
            entries.add(text.toString());
        }
        return entries;
    }

    static Optional<String> infoField(String info, String name) {
        String prefix = name + ":";
        return info.lines().filter(line -> line.startsWith(prefix))
                .map(line -> line.substring(prefix.length()).strip()).findFirst();
    }

    @Override
    public void close() {
        process.close();
    }

    /**
     * @param slowCommands commands that took at least {@link #STALL_MICROS}
     * @param worstMillis  the longest single command, ms (Redis' latency monitor, 1 ms resolution)
     * @param slowest      the slowest commands with their first arguments
     */
    record Stalls(long slowCommands, long worstMillis, List<String> slowest) {
    }
}
