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
 * A Redis Sentinel deployment of private processes on loopback ports, for failover tests: one master, one replica of it
 * ({@code --replicaof}) and three Sentinels that monitor the master under one name with a quorum of two. The Sentinels
 * are the same {@code redis-server} binary run with {@code --sentinel}; each rewrites its own configuration file in its
 * own directory. {@link #start} returns once the replica is in sync and every Sentinel knows the replica and the two
 * other Sentinels, so a client can discover the deployment and a failover can happen.
 *
 * <p>
 * A Sentinel declares the master down after {@link #DOWN_AFTER} without a reply, and the replica is promoted a few
 * seconds later. The data nodes keep no files: a killed master that was started again would come back empty, so this
 * class offers to kill it ({@link #killMaster()}) but not to bring it back.
 *
 * <p>
 * Every process is stopped by its own handle on {@link #close()}, never by name.
 */
public final class RedisSentinelDeployment implements AutoCloseable {

    /** How long a Sentinel waits for a reply before it considers the master down. */
    public static final Duration DOWN_AFTER = Duration.ofSeconds(1);
    /** Sentinel's {@code failover-timeout}: a failover that stalls is retried after twice this. */
    public static final Duration FAILOVER_TIMEOUT = Duration.ofSeconds(4);

    private static final Logger LOG = LoggerFactory.getLogger(RedisSentinelDeployment.class);

    private static final int SENTINELS = 3;
    private static final int QUORUM = 2;
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);
    /** Redis 7 waits 5 s by default before a diskless full sync, in case more replicas come. */
    private static final List<String> DATA_NODE_ARGS = List.of("--repl-diskless-sync-delay", "0");

    private final String masterName;
    private final List<RedisServerProcess> dataNodes;
    private final List<RedisServerProcess> sentinels;

    private RedisSentinelDeployment(String masterName, List<RedisServerProcess> dataNodes,
                                    List<RedisServerProcess> sentinels) {
        this.masterName = masterName;
        this.dataNodes = List.copyOf(dataNodes);
        this.sentinels = List.copyOf(sentinels);
    }

    /**
     * Starts the master, its replica and three Sentinels, and returns once they are settled (bounded: 30 s for each
     * stage). Whatever started is stopped again when a later step fails.
     *
     * @param  masterName               the name the Sentinels monitor the master under, e.g. {@code delay-master}
     * @throws IllegalArgumentException when the name is empty or contains white space
     * @throws IllegalStateException    when a process does not start or the deployment does not settle in time
     */
    public static RedisSentinelDeployment start(RedisBinary binary, String masterName) {
        if (masterName.isEmpty() || masterName.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException(
                    "A master name needs 1 or more characters and no white space, not '"
                                               + masterName + "'");
        }
        List<RedisServerProcess> started = new ArrayList<>();
        try {
            RedisServerProcess master = register(started, RedisServerProcess.start(binary, dataNodeOptions()));
            RedisServerProcess replica = register(started, RedisServerProcess.start(binary, dataNodeOptions(
                    "--replicaof", master.host(), String.valueOf(master.port()))));
            BoundedWait.until("replica " + replica.port() + " in sync with master " + master.port(), READY_TIMEOUT,
                    () -> Replication.inSync(master, replica), () -> replica.command("INFO", "replication"));
            List<RedisServerProcess> sentinels = new ArrayList<>();
            for (int i = 0; i < SENTINELS; i++) {
                sentinels.add(register(started, RedisServerProcess.start(binary,
                        RedisServerOptions.defaults().withExtraArgs("--sentinel"), sentinelConfig(masterName, master))));
            }
            RedisSentinelDeployment deployment = new RedisSentinelDeployment(
                    masterName, List.of(master, replica),
                    sentinels);
            deployment.awaitSentinelsSettled();
            LOG.info("Started {}", deployment);
            return deployment;
        } catch (RuntimeException e) {
            closeAll(started, e);
            throw e;
        }
    }

    /** The name the Sentinels monitor the master under. */
    public String masterName() {
        return masterName;
    }

    /** Where clients find the Sentinels: {@code redis://127.0.0.1:<port>} each. */
    public List<String> sentinelAddresses() {
        return sentinels.stream().map(RedisServerProcess::uri).toList();
    }

    /** The three Sentinel processes. */
    public List<RedisServerProcess> sentinels() {
        return sentinels;
    }

    /** The two data nodes: the first master first, then its replica; a failover swaps their roles, not this order. */
    public List<RedisServerProcess> dataNodes() {
        return dataNodes;
    }

    /**
     * The data node the Sentinels name as master now ({@code SENTINEL get-master-addr-by-name}). A Sentinel that has
     * not heard of a failover yet still names the old master, so the first node named that is running wins; while none
     * is, the first node named.
     *
     * @throws IllegalStateException when no Sentinel answers, or one names a node that is not part of this deployment
     */
    public RedisServerProcess master() {
        List<RedisServerProcess> named = new ArrayList<>();
        for (RedisServerProcess sentinel : sentinels) {
            new SentinelView(sentinel, masterName).masterPort().map(this::dataNodeOnPort).ifPresent(named::add);
        }
        return named.stream().filter(RedisServerProcess::isRunning).findFirst()
                .or(() -> named.stream().findFirst())
                .orElseThrow(() -> new IllegalStateException("No Sentinel of " + this + " names a master"));
    }

    /**
     * Kills the current {@link #master()} with SIGKILL, by its process handle, and returns it; the Sentinels then
     * promote the replica.
     */
    public RedisServerProcess killMaster() {
        RedisServerProcess master = master();
        master.kill();
        LOG.info("Killed master {}", master);
        return master;
    }

    /** Stops the Sentinels first, so that stopping the master starts no failover, then the data nodes. */
    @Override
    public void close() {
        List<RedisServerProcess> all = new ArrayList<>(sentinels);
        all.addAll(dataNodes);
        RuntimeException failure = new IllegalStateException("Cannot stop every process of " + this);
        closeAll(all, failure);
        if (failure.getSuppressed().length > 0) {
            throw failure;
        }
    }

    @Override
    public String toString() {
        return "Sentinel deployment '" + masterName + "' (data node ports " + ports(dataNodes) + "; Sentinel ports "
               + ports(sentinels) + ")";
    }

    private void awaitSentinelsSettled() {
        for (RedisServerProcess sentinel : sentinels) {
            SentinelView view = new SentinelView(sentinel, masterName);
            BoundedWait.until("Sentinel " + sentinel.port() + " knows the replica and " + (SENTINELS - 1)
                              + " other Sentinels",
                    READY_TIMEOUT, () -> view.isSettled(1, SENTINELS - 1),
                    () -> sentinel.command("SENTINEL", "SENTINELS", masterName));
        }
    }

    private RedisServerProcess dataNodeOnPort(int port) {
        return dataNodes.stream().filter(node -> node.port() == port).findFirst()
                .orElseThrow(() -> new IllegalStateException(
                        "A Sentinel of " + this + " names port " + port
                                                             + " as master, which is none of its data nodes"));
    }

    private static RedisServerOptions dataNodeOptions(String... moreArgs) {
        List<String> args = new ArrayList<>(DATA_NODE_ARGS);
        args.addAll(List.of(moreArgs));
        return RedisServerOptions.defaults().withExtraArgs(args.toArray(String[]::new));
    }

    private static List<String> sentinelConfig(String masterName, RedisServerProcess master) {
        return List.of(
                "sentinel monitor " + masterName + " " + master.host() + " " + master.port() + " " + QUORUM,
                "sentinel down-after-milliseconds " + masterName + " " + DOWN_AFTER.toMillis(),
                "sentinel failover-timeout " + masterName + " " + FAILOVER_TIMEOUT.toMillis(),
                "sentinel parallel-syncs " + masterName + " 1");
    }

    private static RedisServerProcess register(List<RedisServerProcess> started, RedisServerProcess process) {
        started.add(process);
        return process;
    }

    /** Closes each process; a failure to close one is added to {@code failure} and does not stop the others. */
    private static void closeAll(List<RedisServerProcess> processes, RuntimeException failure) {
        for (RedisServerProcess process : processes) {
            try {
                process.close();
            } catch (RuntimeException e) {
                failure.addSuppressed(e);
            }
        }
    }

    private static String ports(List<RedisServerProcess> processes) {
        return processes.stream().map(process -> String.valueOf(process.port())).collect(Collectors.joining(", "));
    }
}
