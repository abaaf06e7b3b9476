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

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.github.camelredisdelay.RedisDelayComponent;
import io.github.camelredisdelay.RedisDelayConstants;
import io.github.camelredisdelay.embedded.RedisClusterDeployment;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.internal.ShardTags;
import org.apache.camel.CamelContext;
import org.apache.camel.Message;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

/**
 * One measurement of {@link ClusterScalingMain}: a fresh queue with {@code shards} shards on the cluster, its schedule
 * throughput with 4 producer threads, then the time 3 consumer threads in all take to drain a backlog of due messages.
 */
final class ShardedRun {

    private static final int SCHEDULES = 20_000;
    private static final int BACKLOG = 50_000;
    private static final int PRODUCER_THREADS = 4;
    private static final int PRELOAD_THREADS = 16;
    private static final int CONSUMER_THREADS = 3;
    private static final Duration BOUND = Duration.ofSeconds(150);

    private ShardedRun() {
    }

    record Outcome(int shards, int round, double schedulePerSecond, double drainPerSecond, String masters,
            String drainCpuMsPerMaster, double drainJvmCpuPercent, Map<String, Object> details) {

        String summary() {
            return String.format(
                    "round %d, shards=%d: schedule %.0f msg/s, drain %.0f msg/s, masters %s, Redis CPU per master %s ms",
                    round, shards, schedulePerSecond, drainPerSecond, masters, drainCpuMsPerMaster);
        }
    }

    static Outcome measure(RedisClusterDeployment cluster, int shards, int round, BenchSettings settings) throws Exception {
        String queue = "scale-" + round;
        String uri = "redis-delay:" + queue + "?shards=" + shards;
        int schedules = settings.scaled(SCHEDULES, 1000);
        int backlog = settings.scaled(BACKLOG, 1000);
        RedissonClient client = Redisson.create(clusterConfig(cluster));
        CamelContext camel = new DefaultCamelContext();
        try {
            RedisDelayComponent component = new RedisDelayComponent();
            component.getConfiguration().setRedissonClient(client);
            component.getConfiguration().setKeyPrefix("scale");
            camel.addComponent("redis-delay", component);
            camel.start();
            ProducerTemplate template = camel.createProducerTemplate();

            Senders.run("warm-up", 2000, PRODUCER_THREADS, 0, BOUND,
                    i -> template.sendBodyAndHeader(uri, "w" + i, RedisDelayConstants.DELAY, 3_600_000L));
            Senders.Outcome scheduled = Senders.run("schedule", schedules, PRODUCER_THREADS, 0, BOUND,
                    i -> template.sendBodyAndHeader(uri, "s" + i, RedisDelayConstants.DELAY, 3_600_000L));

            Senders.Outcome preloaded = Senders.run("preload", backlog, PRELOAD_THREADS, 0, BOUND,
                    i -> template.sendBody(uri, Payload.of(i, System.currentTimeMillis(), LatenessProbe.BODY_SIZE)));
            List<RedisServerProcess> masters = masters(cluster);
            Map<Integer, Double> cpuBefore = cpuSeconds(masters);
            long jvmBefore = CpuUsage.jvmCpuNanos();
            Receipts receipts = new Receipts(backlog);
            long start = System.nanoTime();
            camel.addRoutes(new RouteBuilder() {
                @Override
                public void configure() {
                    from(uri + "&concurrentConsumers=" + CONSUMER_THREADS / shards).process(exchange -> {
                        Message message = exchange.getMessage();
                        receipts.received(message.getBody(String.class),
                                message.getHeader(RedisDelayConstants.SCHEDULED_FOR, Long.class));
                    });
                }
            });
            boolean all = receipts.awaitAll(BOUND);
            long drainNanos = System.nanoTime() - start;
            long jvmNanos = CpuUsage.jvmCpuNanos() - jvmBefore;
            Map<Integer, Double> cpuAfter = cpuSeconds(masters);
            String cpuPerMaster = masters.stream()
                    .map(m -> String.format("%d:%.0f", m.port(), (cpuAfter.get(m.port()) - cpuBefore.get(m.port())) * 1000))
                    .collect(Collectors.joining(" "));
            String holding = ShardTags.of(queue, shards).stream()
                    .map(tag -> String.valueOf(cluster.masterOf("{" + tag + "}").port()))
                    .distinct().collect(Collectors.joining(","));

            Map<String, Object> details = new LinkedHashMap<>();
            details.put("round", round);
            details.put("shards", shards);
            details.put("schedules", scheduled.sent());
            details.put("scheduleFailures", scheduled.failed());
            details.put("schedulePerSecond", Numbers.round(scheduled.perSecond(), 1));
            details.put("backlog", backlog);
            details.put("preloadPerSecond", Numbers.round(preloaded.perSecond(), 1));
            details.put("delivered", receipts.received());
            details.put("complete", all);
            details.put("duplicates", receipts.duplicates());
            details.put("drainSeconds", Numbers.round(drainNanos / 1e9, 3));
            details.put("drainPerSecond", Numbers.round(Numbers.perSecond(receipts.received(), drainNanos), 1));
            details.put("mastersHoldingTheQueue", holding);
            details.put("redisCpuMsPerMasterWhileDraining", cpuPerMaster);
            double jvmPercent = 100.0 * jvmNanos / drainNanos / Runtime.getRuntime().availableProcessors();
            details.put("jvmCpuPercentWhileDraining", Numbers.round(jvmPercent, 1));
            return new Outcome(
                    shards, round, scheduled.perSecond(), Numbers.perSecond(receipts.received(), drainNanos),
                    holding, cpuPerMaster, jvmPercent, details);
        } finally {
            camel.stop();
            client.shutdown(0, 5, TimeUnit.SECONDS);
        }
    }

    private static Config clusterConfig(RedisClusterDeployment cluster) {
        Config config = new Config();
        config.setCodec(StringCodec.INSTANCE);
        config.useClusterServers().addNodeAddress(cluster.nodeAddresses().toArray(new String[0]));
        return config;
    }

    private static List<RedisServerProcess> masters(RedisClusterDeployment cluster) {
        return cluster.nodes().stream().filter(node -> node.command("INFO", "replication").contains("role:master")).toList();
    }

    private static Map<Integer, Double> cpuSeconds(List<RedisServerProcess> masters) {
        Map<Integer, Double> seconds = new LinkedHashMap<>();
        for (RedisServerProcess master : masters) {
            seconds.put(master.port(), CpuUsage.redisCpuSeconds(master.command("INFO", "cpu")));
        }
        return seconds;
    }
}
