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
package io.github.camelredisdelay.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;

import io.github.camelredisdelay.embedded.RedisBinary;
import io.github.camelredisdelay.embedded.RedisClusterDeployment;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.test.CamelNodes;
import io.github.camelredisdelay.test.RedisServerExtension;
import io.github.camelredisdelay.test.ThreadDumpOnTimeout;
import org.apache.camel.CamelContext;
import org.apache.camel.RoutesBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Base of the tests against a real Redis Cluster of three masters and three replicas, one per test class, from the
 * binary {@value RedisServerExtension#BINARY_PROPERTY} chooses. Each CamelContext's component is configured the
 * documented way: {@code redissonConfig} names a Redisson YAML file with {@code clusterServersConfig}. The class' keys
 * share one key prefix; its contexts are stopped when the class is done, before the cluster.
 */
@ExtendWith(ThreadDumpOnTimeout.class)
abstract class ClusterTestSupport {

    /** The cluster of this test class. */
    static RedisClusterDeployment cluster;
    /** Key prefix of this test class' queues. */
    static String keyPrefix;
    /** The slot {@link #unserveLastSlot} takes from its master. */
    static final String LAST_SLOT = "16383";

    private static Path redissonConfig;
    private static final CamelNodes NODES = new CamelNodes();

    @BeforeAll
    static void startCluster() {
        cluster = RedisClusterDeployment.start(
                RedisBinary.select(System.getProperty(RedisServerExtension.BINARY_PROPERTY, RedisBinary.PATH_CHOICE)));
        redissonConfig = RedissonClusterYaml.write(cluster.nodeAddresses());
        keyPrefix = "cluster:" + UUID.randomUUID().toString().substring(0, 8);
        System.out.println("[redis-test] using " + cluster + ", redis-server " + cluster.version());
    }

    @AfterAll
    static void stopContextsAndCluster() throws IOException {
        try {
            NODES.close();
        } finally {
            cluster.close();
            Files.deleteIfExists(redissonConfig);
        }
    }

    /** Starts a CamelContext (think: one node) whose redis-delay component talks to the cluster. */
    static CamelContext startContext(RoutesBuilder... routes) throws Exception {
        CamelContext context = createContext(routes);
        context.start();
        return context;
    }

    /** Creates, without starting, a context like {@link #startContext}. */
    static CamelContext createContext(RoutesBuilder... routes) throws Exception {
        return NODES.create(options -> {
            options.setRedissonConfig("file:" + redissonConfig);
            options.setKeyPrefix(keyPrefix);
        }, routes);
    }

    /** The key of one of a queue's structures, e.g. {@code key("orders", "msg")}. */
    static String key(String queue, String structure) {
        return keyPrefix + ":{" + queue + "}:" + structure;
    }

    /**
     * Makes every node forget who serves {@link #LAST_SLOT} (no key of these tests is in it), with
     * cluster-require-full-coverage no, so that Redis serves the other slots on.
     *
     * @return the master that served it, which may take it again with {@code CLUSTER ADDSLOTS}
     */
    static RedisServerProcess unserveLastSlot() {
        RedisServerProcess owner = cluster.masterOf("{reminders}");
        assertThat(owner.command("CLUSTER", "COUNTKEYSINSLOT", LAST_SLOT)).as("the slot of the last master").isEqualTo("0");
        // every node has heard of an earlier ADDSLOTS first: DELSLOTS of an unassigned slot is refused
        awaitSlotsAssigned(16384);
        cluster.nodes().forEach(node -> node.command("CONFIG", "SET", "cluster-require-full-coverage", "no"));
        // a node that forgot the slot may learn it again from a heartbeat of the owner (or of its replica) sent before
        // they forgot it too, and keeps it: such a node is told to forget it again until every node has
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            boolean forgotten = true;
            for (RedisServerProcess node : cluster.nodes()) {
                int assigned = slotsAssigned(node);
                if (assigned == 16384) {
                    node.command("CLUSTER", "DELSLOTS", LAST_SLOT);
                }
                forgotten &= assigned == 16383;
            }
            return forgotten;
        });
        return owner;
    }

    private static void awaitSlotsAssigned(int slots) {
        await().atMost(Duration.ofSeconds(10))
                .until(() -> cluster.nodes().stream().allMatch(node -> slotsAssigned(node) == slots));
    }

    /** The slots {@code node} counts as assigned ({@code cluster_slots_assigned} of CLUSTER INFO). */
    private static int slotsAssigned(RedisServerProcess node) {
        String prefix = "cluster_slots_assigned:";
        return node.command("CLUSTER", "INFO").lines().filter(line -> line.startsWith(prefix))
                .mapToInt(line -> Integer.parseInt(line.substring(prefix.length()).strip())).findFirst().orElse(-1);
    }

    /** The node that serves the slot of every key of {@code queue} now. */
    static RedisServerProcess masterOf(String queue) {
        return cluster.masterOf("{" + queue + "}");
    }
}
