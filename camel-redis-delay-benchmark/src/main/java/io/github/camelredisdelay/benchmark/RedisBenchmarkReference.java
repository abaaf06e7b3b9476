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

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * ref: what this Redis does per second with the tool that ships with it, as the physical ceiling for the numbers above:
 * a trivial script, ZADD and XADD, one command per round trip and pipelined 16 deep.
 */
final class RedisBenchmarkReference implements Scenario {

    private static final int REQUESTS = 100_000;
    private static final long TIMEOUT_SECONDS = 60;
    private static final Pattern RATE = Pattern.compile("([0-9.]+) requests per second");
    private static final Map<String, List<String>> COMMANDS = commands();

    @Override
    public String id() {
        return "ref";
    }

    @Override
    public String title() {
        return "redis-benchmark on the same server: EVAL \"return 1\" 0, ZADD, XADD, with and without -P 16";
    }

    private static Map<String, List<String>> commands() {
        Map<String, List<String>> commands = new LinkedHashMap<>();
        commands.put("EVAL \"return 1\" 0", List.of("EVAL", "return 1", "0"));
        commands.put("ZADD", List.of("-r", "1000000", "ZADD", "bench:zset", "__rand_int__", "member:__rand_int__"));
        commands.put("XADD", List.of("XADD", "bench:stream", "*", "f", "v"));
        return commands;
    }

    @Override
    public void run(Bench bench) {
        int requests = bench.scaled(REQUESTS, 1000);
        for (Map.Entry<String, List<String>> command : COMMANDS.entrySet()) {
            for (int pipeline : List.of(1, 16)) {
                bench.redis().reset();
                Optional<Double> rate = run(bench.redis().port(), requests, pipeline, command.getValue());
                Map<String, Object> details = new LinkedHashMap<>();
                details.put("requests", requests);
                details.put("pipeline", pipeline);
                details.put("available", rate.isPresent());
                bench.report().add(new ResultRow(
                        id(), String.format("redis-benchmark %s, -P %d (req/s; reference)",
                                command.getKey(), pipeline),
                        rate.orElse(null), null, Target.none(), details));
            }
        }
        bench.redis().reset();
    }

    private static Optional<Double> run(int port, int requests, int pipeline, List<String> command) {
        List<String> commandLine = new ArrayList<>(
                List.of("redis-benchmark", "-h", "127.0.0.1", "-p",
                        String.valueOf(port), "-n", String.valueOf(requests), "-P", String.valueOf(pipeline), "-q"));
        commandLine.addAll(command);
        Path output;
        Process process;
        try {
            output = Files.createTempFile("redis-benchmark-", ".txt");
            process = new ProcessBuilder(commandLine).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        } catch (IOException e) {
            Bench.log("cannot run redis-benchmark (is it on PATH?): %s", e.getMessage());
            return Optional.empty();
        }
        try {
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                Bench.log("redis-benchmark did not finish within %d s", TIMEOUT_SECONDS);
                return Optional.empty();
            }
            String text = Files.readString(output, StandardCharsets.UTF_8);
            Matcher rate = RATE.matcher(text);
            Optional<Double> last = Optional.empty();
            while (rate.find()) {
                last = Optional.of(Double.parseDouble(rate.group(1)));
            }
            if (last.isEmpty()) {
                Bench.log("no rate in the output of %s: %s", commandLine, text.strip());
            }
            return last;
        } catch (IOException e) {
            Bench.log("cannot read redis-benchmark's output: %s", e.getMessage());
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            return Optional.empty();
        } finally {
            output.toFile().delete();
        }
    }
}
