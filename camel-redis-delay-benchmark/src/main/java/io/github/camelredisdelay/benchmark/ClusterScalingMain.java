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

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import io.github.camelredisdelay.embedded.RedisBinary;
import io.github.camelredisdelay.embedded.RedisClusterDeployment;
import org.apache.camel.util.json.JsonObject;
import org.apache.camel.util.json.Jsoner;

/**
 * How a busy queue scales with {@code shards} on a real 3-master / 3-replica Redis Cluster of private processes:
 * schedule throughput (4 producer threads) and drain throughput (3 consumer threads in all) with one shard and with
 * three, alternating so drift does not favour either. The first pair warms the JIT up and is only reported in the JSON;
 * the table shows the mean of the other rounds. Prints the table and writes {@code target/cluster-scaling.json} and
 * {@code .md}.
 * <p>
 * {@code mvn -q -pl camel-redis-delay-benchmark -am compile exec:java -Dbench.main=io.github.camelredisdelay.benchmark.ClusterScalingMain}
 */
public final class ClusterScalingMain {

    private static final List<Integer> SHARDS = List.of(1, 3, 1, 3, 1, 3);
    /** Rounds of the first pair: JIT warm-up. */
    private static final int WARM_UP_ROUNDS = 2;

    private ClusterScalingMain() {
    }

    public static void main(String[] args) throws Exception {
        BenchSettings settings = BenchSettings.fromSystemProperties();
        Instant started = Instant.now();
        List<ShardedRun.Outcome> outcomes = new ArrayList<>();
        Map<String, Object> machine = new LinkedHashMap<>();
        try (RedisClusterDeployment cluster = RedisClusterDeployment.start(RedisBinary.select(settings.redisBinary()))) {
            machine.put("redis", cluster.version());
            machine.put("cluster", cluster.toString());
            machine.put("cores", Runtime.getRuntime().availableProcessors());
            machine.put("java", System.getProperty("java.version"));
            System.out.println("Cluster scaling: scale " + settings.scale() + ", " + machine);
            int round = 0;
            for (int shards : SHARDS) {
                ShardedRun.Outcome outcome = ShardedRun.measure(cluster, shards, ++round, settings);
                System.out.println("  " + outcome.summary());
                outcomes.add(outcome);
            }
        }
        String table = table(outcomes.subList(WARM_UP_ROUNDS, outcomes.size()));
        System.out.println();
        System.out.println(table);
        write(settings, outcomes, machine, started, table);
    }

    /** The measured rounds, one shard and three alternating: means per shard count, and the last round's spread. */
    private static String table(List<ShardedRun.Outcome> measured) {
        List<ShardedRun.Outcome> one = measured.stream().filter(o -> o.shards() == 1).toList();
        List<ShardedRun.Outcome> three = measured.stream().filter(o -> o.shards() == 3).toList();
        StringBuilder text = new StringBuilder();
        text.append("| measure (mean of ").append(one.size()).append(" rounds each) | shards=1 | shards=3 | scaling |\n")
                .append("|---|---:|---:|---:|\n");
        row(text, "schedule, 4 producer threads (msg/s)", mean(one, ShardedRun.Outcome::schedulePerSecond),
                mean(three, ShardedRun.Outcome::schedulePerSecond));
        row(text, "drain already-due backlog, 3 consumer threads in all (msg/s)", mean(one, ShardedRun.Outcome::drainPerSecond),
                mean(three, ShardedRun.Outcome::drainPerSecond));
        ShardedRun.Outcome lastOne = one.get(one.size() - 1);
        ShardedRun.Outcome lastThree = three.get(three.size() - 1);
        text.append("| masters holding the queue (port) | ").append(lastOne.masters()).append(" | ").append(lastThree.masters())
                .append(" | |\n");
        text.append("| Redis CPU per master while draining (port:ms), last round | ").append(lastOne.drainCpuMsPerMaster())
                .append(" | ").append(lastThree.drainCpuMsPerMaster()).append(" | |\n");
        row(text, "client JVM CPU while draining (% of all cores)", mean(one, ShardedRun.Outcome::drainJvmCpuPercent),
                mean(three, ShardedRun.Outcome::drainJvmCpuPercent));
        return text.toString();
    }

    private static double mean(List<ShardedRun.Outcome> outcomes, ToDoubleFunction<ShardedRun.Outcome> value) {
        return outcomes.stream().mapToDouble(value).average().orElse(Double.NaN);
    }

    private static void row(StringBuilder text, String measure, double one, double three) {
        text.append("| ").append(measure).append(" | ").append(Numbers.format(one)).append(" | ")
                .append(Numbers.format(three)).append(" | ").append(Numbers.format(three / one)).append("× |\n");
    }

    private static void write(
            BenchSettings settings, List<ShardedRun.Outcome> outcomes, Map<String, Object> machine,
            Instant started, String table)
            throws Exception {
        JsonObject json = new JsonObject();
        json.put("machine", new JsonObject(machine));
        json.put("started", started.toString());
        json.put("seconds", Duration.between(started, Instant.now()).toSeconds());
        json.put("scale", settings.scale());
        json.put("runs", outcomes.stream().map(outcome -> new JsonObject(outcome.details())).toList());
        Path file = settings.output().resolveSibling("cluster-scaling.json");
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, Jsoner.prettyPrint(json.toJson()) + "\n");
        Files.writeString(file.resolveSibling("cluster-scaling.md"), "Cluster scaling " + machine + "\n\n" + table);
        System.out.println("Results in " + file.toAbsolutePath());
    }
}
