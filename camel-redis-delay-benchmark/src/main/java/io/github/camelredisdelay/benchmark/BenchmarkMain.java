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

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the benchmark: starts a private redis-server, then every selected scenario for the redis-delay component (one
 * CamelContext) and for Redisson's RDelayedQueue (one RedissonClient with default settings, like the component's own
 * client), prints a Markdown table and writes it, with the JSON results, under {@code target}.
 * <p>
 * {@code mvn -q -pl camel-redis-delay-benchmark -am compile exec:java -Dbench.scale=1.0 [-Dbench.only=P1,P3]}
 */
public final class BenchmarkMain {

    private static final List<Scenario> SCENARIOS = List.of(new P1Lateness(), new P2ScheduleThroughput(),
            new P2aBulkSchedule(), new P3Drain(), new P3bSameInstant(), new P4Backlog(), new P5Memory(),
            new P6AddedLatency(), new RedisBenchmarkReference());

    private BenchmarkMain() {
    }

    public static void main(String[] args) throws Exception {
        BenchSettings settings = BenchSettings.fromSystemProperties();
        Instant started = Instant.now();
        Report report = new Report();
        Map<String, Object> machine;
        try (BenchRedis redis = BenchRedis.start(settings.redisBinary())) {
            machine = Machine.describe(redis);
            System.out.println("Benchmark: scale " + settings.scale() + ", scenarios "
                               + (settings.only().isEmpty() ? "all" : settings.only()) + ", machine " + machine);
            try (BenchClients clients = BenchClients.connect(redis.uri())) {
                Bench bench = new Bench(settings, redis, clients, report);
                JitWarmUp.run(bench);
                SCENARIOS.stream().filter(scenario -> settings.selected(scenario.id()))
                        .forEach(scenario -> run(bench, scenario));
            }
        }
        writeResults(settings, report, machine, started);
    }

    private static void run(Bench bench, Scenario scenario) {
        System.out.printf("%n%s: %s%n", scenario.id(), scenario.title());
        long start = System.nanoTime();
        try {
            scenario.run(bench);
        } catch (RuntimeException e) {
            System.out.println("  " + scenario.id() + " failed: " + e);
            e.printStackTrace(System.out);
            bench.report().failed(scenario.id(), e);
        }
        System.out.printf("  (%s took %.0f s)%n", scenario.id(), (System.nanoTime() - start) / 1e9);
    }

    private static void writeResults(
            BenchSettings settings, Report report, Map<String, Object> machine,
            Instant started) {
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("started", started.toString());
        run.put("seconds", Duration.between(started, Instant.now()).toSeconds());
        run.put("scale", settings.scale());
        run.put("scenarios", settings.only().isEmpty() ? "all" : String.join(",", settings.only()));
        System.out.println();
        System.out.println(report.markdown());
        Path json = settings.output();
        String base = json.getFileName().toString().replaceFirst("\\.json$", "");
        Path markdown = json.resolveSibling(base + ".md");
        report.writeJson(json, machine, run);
        report.writeMarkdown(markdown, "Benchmark " + run + "\n\nMachine " + machine);
        List<Path> charts = report.writeCharts(json.toAbsolutePath().getParent(), base);
        System.out.printf("Took %s s; results in %s and %s; charts %s%n", run.get("seconds"), json.toAbsolutePath(),
                markdown.toAbsolutePath(), charts);
    }
}
