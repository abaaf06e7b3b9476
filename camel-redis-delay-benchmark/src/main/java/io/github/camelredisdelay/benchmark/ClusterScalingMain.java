package io.github.camelredisdelay.benchmark;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.camelredisdelay.embedded.RedisBinary;
import io.github.camelredisdelay.embedded.RedisClusterDeployment;
import org.apache.camel.util.json.JsonObject;
import org.apache.camel.util.json.Jsoner;

/**
 * How a busy queue scales with {@code shards} on a real 3-master / 3-replica Redis Cluster of private processes:
 * schedule throughput (4 producer threads) and drain throughput (3 consumer threads in all) with one shard and with
 * three, alternating twice so JIT warm-up and drift do not favour either. Prints a table and writes
 * {@code target/cluster-scaling.json} and {@code .md}.
 * <p>
 * {@code mvn -q -pl camel-redis-delay-benchmark -am compile exec:java -Dbench.main=io.github.camelredisdelay.benchmark.ClusterScalingMain}
 */
public final class ClusterScalingMain {

    private static final List<Integer> SHARDS = List.of(1, 3, 1, 3);

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
        String table = table(outcomes.subList(outcomes.size() - 2, outcomes.size()));
        System.out.println();
        System.out.println(table);
        write(settings, outcomes, machine, started, table);
    }

    /** The last round: one shard, then three. */
    private static String table(List<ShardedRun.Outcome> last) {
        ShardedRun.Outcome one = last.get(0);
        ShardedRun.Outcome three = last.get(1);
        StringBuilder text = new StringBuilder();
        text.append("| measure | shards=1 | shards=3 | scaling |\n|---|---:|---:|---:|\n");
        row(text, "schedule, 4 producer threads (msg/s)", one.schedulePerSecond(), three.schedulePerSecond());
        row(text, "drain already-due backlog, 3 consumer threads in all (msg/s)", one.drainPerSecond(), three.drainPerSecond());
        text.append("| masters holding the queue | ").append(one.masters()).append(" | ").append(three.masters()).append(" | |\n");
        text.append("| Redis CPU per master while draining (ms) | ").append(one.drainCpuMsPerMaster()).append(" | ")
                .append(three.drainCpuMsPerMaster()).append(" | |\n");
        text.append("| client JVM CPU while draining (% of 2 cores) | ").append(Numbers.format(one.drainJvmCpuPercent()))
                .append(" | ").append(Numbers.format(three.drainJvmCpuPercent())).append(" | |\n");
        return text.toString();
    }

    private static void row(StringBuilder text, String measure, double one, double three) {
        text.append("| ").append(measure).append(" | ").append(Numbers.format(one)).append(" | ")
                .append(Numbers.format(three)).append(" | ").append(Numbers.format(three / one)).append("× |\n");
    }

    private static void write(BenchSettings settings, List<ShardedRun.Outcome> outcomes, Map<String, Object> machine,
            Instant started, String table) throws Exception {
        JsonObject json = new JsonObject();
        json.put("machine", new JsonObject(machine));
        json.put("started", started.toString());
        json.put("seconds", Duration.between(started, Instant.now()).toSeconds());
        json.put("scale", settings.scale());
        json.put("runs", outcomes.stream().map(outcome -> new JsonObject(outcome.details())).toList());
        Path file = settings.output().resolveSibling("cluster-scaling.json");
        java.nio.file.Files.createDirectories(file.toAbsolutePath().getParent());
        java.nio.file.Files.writeString(file, Jsoner.prettyPrint(json.toJson()) + "\n");
        java.nio.file.Files.writeString(file.resolveSibling("cluster-scaling.md"), "Cluster scaling " + machine + "\n\n" + table);
        System.out.println("Results in " + file.toAbsolutePath());
    }
}
