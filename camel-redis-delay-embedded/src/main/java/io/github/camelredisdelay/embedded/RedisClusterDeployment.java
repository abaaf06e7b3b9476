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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Redis Cluster on loopback: three masters sharing the 16384 slots, each with one replica. It is made of six
 * private {@link RedisServerProcess}es started with {@code --cluster-enabled yes}, each with its own directory and
 * cluster config file, and joined with Redis' cluster commands ({@link ClusterJoin}), so only redis-server is needed.
 *
 * <p>
 * For tests and benchmarks of cluster clients, failover included: the nodes are ordinary {@link RedisServerProcess}es,
 * so a test can {@link RedisServerProcess#kill() kill} one (SIGKILL to that process, by its handle) or
 * {@link RedisServerProcess#stop() stop} it, then {@link #awaitPromotion await} its replica's promotion. Every wait is
 * bounded in time and polls. {@link #close()} stops every process the deployment started; each also has
 * {@link RedisServerProcess}' JVM exit hook.
 */
public final class RedisClusterDeployment implements AutoCloseable {

    /** Masters sharing the slots. */
    public static final int MASTERS = 3;
    /** Replicas of each master. */
    public static final int REPLICAS_PER_MASTER = 1;
    /** How long a master may be unreachable before its replica takes over; Redis' default is 15 s. */
    public static final Duration NODE_TIMEOUT = Duration.ofSeconds(2);

    private static final Logger LOG = LoggerFactory.getLogger(RedisClusterDeployment.class);

    private static final Duration FORM_TIMEOUT = Duration.ofSeconds(30);
    private static final int NODE_START_ATTEMPTS = 3;

    private final List<RedisServerProcess> nodes;

    private RedisClusterDeployment(List<RedisServerProcess> nodes) {
        this.nodes = List.copyOf(nodes);
    }

    /**
     * Starts six nodes, joins them into a cluster and returns once every node reports {@code cluster_state:ok}, the
     * three masters serve all slots, each has its replica attached, every node has its bus links to the others up and a
     * message published on any node reaches subscribers on every node.
     *
     * @throws IllegalStateException when a node does not start or the cluster does not form within 30 s; nothing is
     *                               left running then
     */
    public static RedisClusterDeployment start(RedisBinary binary) {
        List<RedisServerProcess> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < MASTERS * (1 + REPLICAS_PER_MASTER); i++) {
                nodes.add(startNode(binary));
            }
            ClusterJoin.join(nodes, MASTERS);
            RedisClusterDeployment cluster = new RedisClusterDeployment(nodes);
            BoundedWait.until("the cluster is formed", FORM_TIMEOUT, cluster::isFormed, cluster::describe);
            PublishReach.await(nodes, FORM_TIMEOUT);
            LOG.info("Started {}", cluster);
            return cluster;
        } catch (RuntimeException e) {
            closeAll(nodes, e);
            throw e;
        }
    }

    /** Every node, running or not, in the order they were started; the first three began as the masters. */
    public List<RedisServerProcess> nodes() {
        return nodes;
    }

    /** Every node's {@code redis://127.0.0.1:<port>}, for a client's list of seed addresses. */
    public List<String> nodeAddresses() {
        return nodes.stream().map(RedisServerProcess::uri).toList();
    }

    /** The {@code redis_version} of the nodes, such as {@code 7.0.15}. */
    public String version() {
        return anyRunning().version();
    }

    /** The slot of {@code key}, from {@code CLUSTER KEYSLOT}: its hash tag's slot when it has one. */
    public int slotOf(String key) {
        return Integer.parseInt(anyRunning().command("CLUSTER", "KEYSLOT", key));
    }

    /**
     * The node that serves {@code key}'s slot now, as the first running node sees the cluster.
     *
     * @throws IllegalStateException when that node knows no healthy master of the slot (during a failover)
     */
    public RedisServerProcess masterOf(String key) {
        int slot = slotOf(key);
        return view().stream()
                .filter(node -> node.isMaster() && !node.isFailing() && node.serves(slot))
                .findFirst()
                .map(node -> byPort(node.port()))
                .orElseThrow(() -> new IllegalStateException(
                        "No healthy master serves slot " + slot + " (key '" + key
                                                             + "') in the view of " + anyRunning() + ":\n" + describe()));
    }

    /**
     * A healthy replica of {@code master}, the node that takes over its slots when it fails.
     *
     * @throws IllegalStateException when it has none
     */
    public RedisServerProcess replicaOf(RedisServerProcess master) {
        List<ClusterNode> view = view();
        String masterId = view.stream().filter(node -> node.port() == master.port()).findFirst()
                .map(ClusterNode::id)
                .orElseThrow(() -> new IllegalStateException(master + " is not a member of this cluster"));
        return view.stream()
                .filter(node -> node.masterId().equals(masterId) && !node.isFailing())
                .findFirst()
                .map(node -> byPort(node.port()))
                .orElseThrow(() -> new IllegalStateException(master + " has no healthy replica:\n" + describe()));
    }

    /**
     * Waits until {@code replica} has been promoted: it says it is a master, every running node sees it serve slots,
     * and every running node reports {@code cluster_state:ok}.
     *
     * @throws IllegalStateException when that does not happen within {@code timeout}
     */
    public void awaitPromotion(RedisServerProcess replica, Duration timeout) {
        BoundedWait.until(replica + " is promoted to master", timeout, () -> isPromoted(replica), this::describe);
    }

    /** Stops every node that still runs and deletes its directory. */
    @Override
    public void close() {
        closeAll(nodes, null);
    }

    @Override
    public String toString() {
        return "Redis Cluster of " + nodes.size() + " nodes on ports "
               + nodes.stream().map(node -> String.valueOf(node.port())).collect(Collectors.joining(","));
    }

    private static RedisServerProcess startNode(RedisBinary binary) {
        IllegalStateException last = null;
        for (int attempt = 1; attempt <= NODE_START_ATTEMPTS; attempt++) {
            RedisServerOptions options = RedisServerOptions.defaults()
                    .withPort(ClusterPorts.pickFree())
                    .withExtraArgs("--cluster-enabled", "yes",
                            "--cluster-config-file", "nodes.conf",
                            "--cluster-node-timeout", String.valueOf(NODE_TIMEOUT.toMillis()),
                            // a master syncs a new replica at once instead of waiting 5 s for more (Redis 7)
                            "--repl-diskless-sync-delay", "0");
            try {
                return RedisServerProcess.start(binary, options);
            } catch (IllegalStateException e) {
                // its client or bus port was taken meanwhile; another pair will do
                LOG.info("Cluster node on port {} did not start (attempt {} of {}): {}", options.port(), attempt,
                        NODE_START_ATTEMPTS, e.getMessage());
                last = e;
            }
        }
        throw last;
    }

    private boolean isFormed() {
        if (!isHealthy()) {
            return false;
        }
        for (RedisServerProcess node : nodes) {
            List<ClusterNode> view = ClusterNode.parseAll(node.command("CLUSTER", "NODES"));
            List<ClusterNode> masters = view.stream().filter(n -> n.isMaster() && !n.slots().isEmpty()).toList();
            boolean eachHasItsReplicas = masters.stream().allMatch(master -> view.stream()
                    .filter(n -> n.masterId().equals(master.id()) && !n.isFailing()).count() == REPLICAS_PER_MASTER);
            // a node drops the PUBLISH it forwards to a node it has no bus link to yet, and wake notices travel that
            // way; PublishReach then proves every link carries them
            if (masters.size() != MASTERS || !eachHasItsReplicas || !view.stream().allMatch(ClusterNode::linked)) {
                return false;
            }
        }
        return true;
    }

    private boolean isPromoted(RedisServerProcess replica) {
        if (!replica.isRunning() || !replica.command("ROLE").startsWith("master\n") || !isHealthy()) {
            return false;
        }
        return running().stream().allMatch(node -> ClusterNode.parseAll(node.command("CLUSTER", "NODES")).stream()
                .anyMatch(n -> n.port() == replica.port() && n.isMaster() && !n.isFailing() && !n.slots().isEmpty()));
    }

    /** Every running node says {@code cluster_state:ok}, and every running replica's link to its master is up. */
    private boolean isHealthy() {
        for (RedisServerProcess node : running()) {
            if (!Info.field(node.command("CLUSTER", "INFO"), "cluster_state").filter("ok"::equals).isPresent()) {
                return false;
            }
            String replication = node.command("INFO", "replication");
            boolean replica = Info.field(replication, "role").filter("slave"::equals).isPresent();
            if (replica && !Info.field(replication, "master_link_status").filter("up"::equals).isPresent()) {
                return false;
            }
        }
        return true;
    }

    private List<ClusterNode> view() {
        return ClusterNode.parseAll(anyRunning().command("CLUSTER", "NODES"));
    }

    private List<RedisServerProcess> running() {
        return nodes.stream().filter(RedisServerProcess::isRunning).toList();
    }

    private RedisServerProcess anyRunning() {
        return running().stream().findFirst()
                .orElseThrow(() -> new IllegalStateException("No node of " + this + " is running"));
    }

    private RedisServerProcess byPort(int port) {
        return nodes.stream().filter(node -> node.port() == port).findFirst()
                .orElseThrow(() -> new IllegalStateException("No node of " + this + " listens on port " + port));
    }

    /** Each running node's {@code CLUSTER NODES}, for exception messages. */
    private String describe() {
        StringBuilder text = new StringBuilder();
        for (RedisServerProcess node : nodes) {
            text.append("--- ").append(node).append(" ---\n").append(clusterNodesOf(node)).append('\n');
        }
        return text.toString();
    }

    private static String clusterNodesOf(RedisServerProcess node) {
        if (!node.isRunning()) {
            return "(not running)";
        }
        try {
            return node.command("CLUSTER", "NODES");
        } catch (RuntimeException e) {
            return "(no answer: " + e.getMessage() + ")";
        }
    }

    /** Closes every node even when one fails to stop; the first failure is thrown, or added to {@code cause}. */
    private static void closeAll(List<RedisServerProcess> nodes, RuntimeException cause) {
        RuntimeException first = cause;
        for (RedisServerProcess node : nodes) {
            try {
                node.close();
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null && first != cause) {
            throw first;
        }
    }
}
