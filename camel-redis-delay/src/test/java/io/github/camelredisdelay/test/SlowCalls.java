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

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LongSummaryStatistics;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.internal.LuaScript;

/**
 * The commands a redis-server logged in its {@code SLOWLOG} as slower than a threshold, by command, with the
 * component's scripts named by their file instead of their SHA, and the events its latency monitor saw (a {@code fork}
 * for an append-only file rewrite, for one, which no command shows). Changes the server's slowlog and latency monitor
 * settings while recording.
 */
public final class SlowCalls {

    /**
     * Returns each entry's command (for EVALSHA and EVALSHA_RO, the script's SHA) and duration in µs, two lines each.
     */
    private static final String ENTRIES = "local out = {} "
                                          + "for _, entry in ipairs(redis.call('SLOWLOG', 'GET', -1)) do "
                                          + "local command = string.lower(entry[4][1]) "
                                          + "if command == 'evalsha' or command == 'evalsha_ro' then command = entry[4][2] end "
                                          + "out[#out + 1] = command out[#out + 1] = entry[3] end "
                                          + "return out";
    /** Two entries may run one script (peek and peek_on_master): its name is then both. */
    private static final Map<String, String> SCRIPTS_BY_SHA = Arrays.stream(LuaScript.values())
            .collect(Collectors.toMap(script -> sha1(script.text()), script -> script.name().toLowerCase() + " script",
                    (one, other) -> one + " / " + other));

    private final RedisServerProcess server;

    private SlowCalls(RedisServerProcess server) {
        this.server = server;
    }

    /**
     * Clears the server's slowlog and latency monitor, and from now logs every command slower than {@code overMicros}
     * (up to 100,000) and every latency event of at least {@code eventMillis}.
     */
    public static SlowCalls record(RedisServerProcess server, long overMicros, long eventMillis) {
        server.command("CONFIG", "SET", "slowlog-log-slower-than", String.valueOf(overMicros));
        server.command("CONFIG", "SET", "slowlog-max-len", "100000");
        server.command("SLOWLOG", "RESET");
        server.command("CONFIG", "SET", "latency-monitor-threshold", String.valueOf(eventMillis));
        server.command("LATENCY", "RESET");
        return new SlowCalls(server);
    }

    /**
     * Runs {@code operation}, which changes nothing, with the slowlog logging every call slower than
     * {@code overMicros}, and again, up to {@code tries} runs in all, while a run had such a call: a loaded machine
     * that takes Redis off the CPU during a call slows one run, while a call slow by the work it does is slow in every
     * run. Puts the server's settings back afterwards.
     *
     * @return the run whose longest logged call was the shortest: its result and its slow calls ({@link #byCommand})
     */
    public static <T> Quickest<T> quickestOf(RedisServerProcess server, long overMicros, int tries, Supplier<T> operation) {
        Quickest<T> quickest = null;
        try {
            for (int attempt = 0; attempt < tries && (quickest == null || !quickest.slow().isEmpty()); attempt++) {
                SlowCalls calls = record(server, overMicros, 1);
                T result = operation.get();
                Quickest<T> run = new Quickest<>(result, calls.byCommand());
                if (quickest == null || longest(run.slow()) < longest(quickest.slow())) {
                    quickest = run;
                }
            }
        } finally {
            new SlowCalls(server).stop();
        }
        return quickest;
    }

    /** What {@link #quickestOf} returns: the quickest run's result and its calls slower than the bound, by command. */
    public record Quickest<T>(T result, Map<String, LongSummaryStatistics> slow) {
    }

    /** The longest of each latency event since {@link #record}, ms (from {@code LATENCY LATEST}). */
    public Map<String, Long> events() {
        // each event: name, time of the latest, latest ms, longest ms
        String[] lines = server.command("LATENCY", "LATEST").lines().toArray(String[]::new);
        Map<String, Long> longest = new TreeMap<>();
        for (int i = 0; i + 3 < lines.length; i += 4) {
            longest.put(lines[i], Long.parseLong(lines[i + 3]));
        }
        return longest;
    }

    /** What was logged since {@link #record}, by command: count and durations (µs). */
    public Map<String, LongSummaryStatistics> byCommand() {
        String[] lines = server.command("EVAL", ENTRIES, "0").lines().toArray(String[]::new);
        Map<String, LongSummaryStatistics> stats = new TreeMap<>();
        for (int i = 0; i + 1 < lines.length; i += 2) {
            String command = SCRIPTS_BY_SHA.getOrDefault(lines[i], lines[i]);
            stats.computeIfAbsent(command, c -> new LongSummaryStatistics()).accept(Long.parseLong(lines[i + 1]));
        }
        return stats;
    }

    /** Back to Redis' defaults. */
    public void stop() {
        server.command("CONFIG", "SET", "slowlog-log-slower-than", "10000");
        server.command("CONFIG", "SET", "slowlog-max-len", "128");
        server.command("CONFIG", "SET", "latency-monitor-threshold", "0");
    }

    /** The longest logged call, µs; 0 if none. */
    public static long longest(Map<String, LongSummaryStatistics> byCommand) {
        return byCommand.values().stream().mapToLong(LongSummaryStatistics::getMax).max().orElse(0);
    }

    /** One line: each command with its count and shortest, mean and longest duration (µs). */
    public static String describe(Map<String, LongSummaryStatistics> byCommand) {
        return byCommand.entrySet().stream()
                .map(e -> String.format("%s %dx %d/%.0f/%d us", e.getKey(), e.getValue().getCount(), e.getValue().getMin(),
                        e.getValue().getAverage(), e.getValue().getMax()))
                .collect(Collectors.joining(", "));
    }

    private static String sha1(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is missing from this JVM", e);
        }
    }
}
