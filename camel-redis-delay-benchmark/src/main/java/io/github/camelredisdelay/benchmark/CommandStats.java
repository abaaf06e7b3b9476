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

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Calls and time per command from {@code INFO commandstats}. Redis counts the commands a Lua script runs as well as the
 * EVALSHA that ran it, so {@link #total()} is every command executed while {@link #scripts()} is the number of script
 * round trips (EVAL, EVALSHA and their read-only variants). Commands the benchmark itself sends to probe the server are
 * left out.
 */
record CommandStats(Map<String, Long> calls, Map<String, Long> micros) {

    private static final Set<String> PROBES = Set.of("info", "flushall", "slowlog", "latency", "xlen", "llen",
            "config", "memory", "scan");

    /** Redis 7 counts read-only script calls apart. */
    private static final Set<String> SCRIPT_COMMANDS = Set.of("evalsha", "eval", "evalsha_ro", "eval_ro");

    static CommandStats parse(String info) {
        Map<String, Long> calls = new HashMap<>();
        Map<String, Long> micros = new HashMap<>();
        info.lines().filter(line -> line.startsWith("cmdstat_")).forEach(line -> {
            int colon = line.indexOf(':');
            // Redis 7 names subcommands "config|set"; count them under their command
            String command = line.substring("cmdstat_".length(), colon).split("\\|")[0];
            if (PROBES.contains(command)) {
                return;
            }
            for (String field : line.substring(colon + 1).split(",")) {
                String[] pair = field.split("=");
                if (pair[0].equals("calls")) {
                    calls.merge(command, Long.parseLong(pair[1]), Long::sum);
                } else if (pair[0].equals("usec")) {
                    micros.merge(command, Long.parseLong(pair[1]), Long::sum);
                }
            }
        });
        return new CommandStats(Map.copyOf(calls), Map.copyOf(micros));
    }

    /** What happened between {@code earlier} and this snapshot. */
    CommandStats minus(CommandStats earlier) {
        return new CommandStats(subtract(calls, earlier.calls), subtract(micros, earlier.micros));
    }

    long total() {
        return calls.values().stream().mapToLong(Long::longValue).sum();
    }

    long scripts() {
        return SCRIPT_COMMANDS.stream().mapToLong(this::calls).sum();
    }

    /** Time Redis spent in scripts, µs (includes the commands they ran). */
    long scriptMicros() {
        return SCRIPT_COMMANDS.stream().mapToLong(command -> micros.getOrDefault(command, 0L)).sum();
    }

    long calls(String command) {
        return calls.getOrDefault(command, 0L);
    }

    /** Calls per command divided by {@code messages}, most frequent first, for the JSON details. */
    Map<String, Double> perMessage(long messages) {
        return perMessage(calls, messages, 3);
    }

    /**
     * Redis' time per command (µs) divided by {@code messages}, longest first, for the JSON details. A script's time
     * includes the commands it ran, which are also counted under their own names.
     */
    Map<String, Double> microsPerMessage(long messages) {
        return perMessage(micros, messages, 2);
    }

    private static Map<String, Double> perMessage(Map<String, Long> perCommand, long messages, int decimals) {
        Map<String, Double> result = new LinkedHashMap<>();
        perCommand.entrySet().stream()
                .filter(e -> e.getValue() > 0)
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> result.put(e.getKey(), Numbers.round(e.getValue() / (double) messages, decimals)));
        return result;
    }

    private static Map<String, Long> subtract(Map<String, Long> later, Map<String, Long> earlier) {
        Map<String, Long> delta = new HashMap<>();
        later.forEach((command, value) -> {
            long d = value - earlier.getOrDefault(command, 0L);
            if (d != 0) {
                delta.put(command, d);
            }
        });
        return Map.copyOf(delta);
    }
}
