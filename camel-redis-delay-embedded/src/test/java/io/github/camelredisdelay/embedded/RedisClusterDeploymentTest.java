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
package io.github.camelredisdelay.embedded;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class RedisClusterDeploymentTest {

    private static final RedisBinary BINARY = RedisBinary.select(System.getProperty("redis.test.binary", "path"));
    /** Hash tags whose slots the three masters of a fresh cluster share between them. */
    private static final List<String> KEYS = List.of("{a}", "{b}", "{c}", "{d}", "{e}", "{f}", "{g}", "{h}");

    /** Shared by the tests that leave the cluster as it is. */
    private static RedisClusterDeployment cluster;

    @BeforeAll
    static void startCluster() {
        cluster = RedisClusterDeployment.start(BINARY);
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    @Test
    void everyNodeSeesAHealthyClusterOfThreeMastersAndSixNodes() {
        for (RedisServerProcess node : cluster.nodes()) {
            String info = node.command("CLUSTER", "INFO");
            assertThat(Info.field(info, "cluster_state")).as("%s", node).contains("ok");
            assertThat(Info.field(info, "cluster_size")).as("%s", node).contains("3");
            assertThat(Info.field(info, "cluster_known_nodes")).as("%s", node).contains("6");
        }
    }

    @Test
    void threeNodesAreMastersAndEachOtherNodeReplicatesOne() {
        List<String> roles = cluster.nodes().stream().map(node -> node.command("ROLE").lines().findFirst().orElseThrow())
                .toList();

        assertThat(roles).containsExactlyInAnyOrder("master", "master", "master", "slave", "slave", "slave");
    }

    @Test
    void nodeAddressesAreTheRedisUrisOfAllSixNodes() {
        assertThat(cluster.nodeAddresses()).hasSize(6)
                .allMatch(address -> address.matches("redis://127\\.0\\.0\\.1:\\d+"))
                .containsExactlyElementsOf(cluster.nodes().stream().map(RedisServerProcess::uri).toList());
    }

    @Test
    void slotOfAKeyIsTheSlotOfItsHashTag() {
        // the example of the Redis Cluster specification: CLUSTER KEYSLOT foo is 12182
        assertThat(cluster.slotOf("foo")).isEqualTo(12182);
        assertThat(cluster.slotOf("camel:delay:{foo}:due")).isEqualTo(12182);
    }

    @Test
    void masterOfAKeyAcceptsItsWritesWhileOtherMastersRedirectThem() {
        String key = "camel:delay:{orders}:due";
        RedisServerProcess master = cluster.masterOf(key);
        RedisServerProcess otherMaster = cluster.masterOf(keyNotServedBy(master));

        assertThat(master.command("SET", key, "1")).isEqualTo("OK");
        assertThatThrownBy(() -> otherMaster.command("SET", key, "1"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("MOVED " + cluster.slotOf(key));
    }

    @Test
    void theThreeMastersServeDifferentKeys() {
        Set<Integer> masterPorts = KEYS.stream().map(key -> cluster.masterOf(key).port()).collect(Collectors.toSet());

        assertThat(masterPorts).hasSize(3);
    }

    @Test
    void replicaOfAMasterIsConnectedToIt() {
        RedisServerProcess master = cluster.masterOf("{orders}");

        RedisServerProcess replica = cluster.replicaOf(master);

        assertThat(replica).isNotSameAs(master);
        assertThat(replica.command("ROLE")).startsWith("slave\n127.0.0.1\n" + master.port() + "\nconnected\n");
    }

    @Test
    void aMessagePublishedOnceOnAnyNodeReachesSubscribersOnEveryNode() throws Exception {
        List<Subscription> subscriptions = new ArrayList<>();
        try {
            for (RedisServerProcess node : cluster.nodes()) {
                subscriptions.add(Subscription.open(node, "news", Duration.ofSeconds(5)));
            }
            Set<String> publishers = cluster.nodes().stream().map(node -> String.valueOf(node.port()))
                    .collect(Collectors.toSet());

            cluster.nodes().forEach(node -> node.command("PUBLISH", "news", String.valueOf(node.port())));

            // forwarded over the cluster bus: arrives within milliseconds, or never
            await().atMost(Duration.ofSeconds(2)).untilAsserted(() -> assertThat(subscriptions)
                    .extracting(Subscription::payloads).as("publishers heard by each node's subscriber")
                    .allMatch(publishers::equals));
        } finally {
            subscriptions.forEach(Subscription::close);
        }
    }

    @Test
    void replicaOfAKilledMasterIsPromotedAndServesItsSlot() {
        try (RedisClusterDeployment own = RedisClusterDeployment.start(BINARY)) {
            String key = "{orders}";
            RedisServerProcess master = own.masterOf(key);
            RedisServerProcess replica = own.replicaOf(master);

            master.kill();
            own.awaitPromotion(replica, Duration.ofSeconds(30));

            assertThat(master.isRunning()).isFalse();
            assertThat(own.masterOf(key)).isSameAs(replica);
            assertThat(replica.command("SET", key, "after failover")).isEqualTo("OK");
        }
    }

    @Test
    void closeStopsEveryNodeAndDeletesItsDirectory() {
        RedisClusterDeployment own = RedisClusterDeployment.start(BINARY);
        List<Long> pids = own.nodes().stream().map(RedisServerProcess::pid).toList();
        List<Path> dirs = own.nodes().stream().map(RedisServerProcess::directory).toList();

        own.close();

        assertThat(pids).noneMatch(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
        assertThat(dirs).allMatch(dir -> !dir.toFile().exists());
    }

    /** A key whose slot another master than {@code master} serves. */
    private static String keyNotServedBy(RedisServerProcess master) {
        return KEYS.stream().filter(key -> cluster.masterOf(key) != master).findFirst().orElseThrow();
    }
}
