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
package io.github.camelredisdelay.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import org.redisson.Redisson;
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.client.RedisConnectionException;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;
import org.redisson.config.SentinelServersConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Redisson client of a connection, handed out only once it has connected; its first connection is made one attempt
 * at a time, on a thread of its own, and an attempt answers every caller that waited for it. Attempts begin at least
 * {@value #ATTEMPT_SPACING_MS} ms apart: each creates a whole Redisson client (some 30 threads) and takes it down again
 * when it fails, and while Redis stays away every queue's transfer task, consumers and subscription retry on back-offs
 * of their own. A caller that comes within that time of a failed attempt waits for the next one, rather than being
 * answered with the old failure, so a schedule made just after Redis came back succeeds.
 * <p>
 * The component creates its own clients here, when first used, rather than with Redisson's lazy initialization. A
 * lazily initialized client of Redisson 4.7 keeps what a failed first connection set up; on a cluster, taking that down
 * on the next attempt can run a new attempt on one of the client's own I/O threads (stalling it until the attempt times
 * out, 40 s by default), and two attempts at once can leave one waiting for ever, and every later call of the client
 * with it. A client that fails to connect here is shut down whole (a stop does not interrupt the attempt: Redisson
 * leaves an interrupted one running), and the next caller creates a new one. A client bean is used as it was built; if
 * it is lazily initialized, its first connection is made here too, one attempt at a time.
 */
public final class ConnectedClient {

    private static final Logger LOG = LoggerFactory.getLogger(ConnectedClient.class);

    /** Longest wait of a client's shutdown for its commands in flight and its connections to close. */
    private static final long SHUTDOWN_MS = 200;
    /** Shortest time between the beginnings of two attempts to connect. */
    static final long ATTEMPT_SPACING_MS = 1000;

    private final Supplier<RedissonClient> connect;
    private final Supplier<Config> config;
    private final boolean owned;
    private volatile RedissonClient client;
    /** The attempt under way, which every caller meanwhile waits for; guarded by this. */
    private CompletableFuture<RedissonClient> attempt;
    /** The earliest the next attempt may begin ({@link System#nanoTime()}); guarded by this. */
    private long nextAttemptNanos = System.nanoTime();
    /** Why the last attempt failed, until one succeeds. */
    private volatile RuntimeException connectFailure;
    private volatile boolean shutDown;
    private final CallsInFlight inFlight = new CallsInFlight(this::hasShutDown);

    private ConnectedClient(Supplier<RedissonClient> connect, Supplier<Config> config, boolean owned) {
        this.connect = connect;
        this.config = config;
        this.owned = owned;
    }

    /**
     * A client the component creates from {@code config} when first used, and {@link #shutdown shuts down}.
     *
     * @param source where the configuration comes from, for messages: {@code address redis://host:6379}, say
     */
    public static ConnectedClient owned(Config config, String source) {
        return new ConnectedClient(() -> refusingClusterNode(Redisson.create(config), config, source), () -> config, true);
    }

    /**
     * {@code made}, unless it connects to one server, not as a cluster client, and that server is a Redis Cluster node:
     * used so, the queues whose slots the node serves would work, those of the other masters fail with MOVED, and a
     * failover of the node would not be followed. Such a client is shut down and refused, saying what to give instead.
     * A server that does not let {@code INFO} run (an ACL user without it) is taken as it is.
     */
    private static RedissonClient refusingClusterNode(RedissonClient made, Config config, String source) {
        if (config.isClusterConfig()) {
            return made;
        }
        String info;
        try {
            info = made.getScript(StringCodec.INSTANCE).eval(RScript.Mode.READ_ONLY, "return redis.call('INFO', 'cluster')",
                    RScript.ReturnType.VALUE);
        } catch (RuntimeException notAllowed) {
            return made;
        }
        if (info == null || !info.contains("cluster_enabled:1")) {
            return made;
        }
        made.shutdown(0, 2, TimeUnit.SECONDS);
        throw new RedisConnectionException(
                "The Redis server of " + source + " is a Redis Cluster node (cluster_enabled:1), which the component would "
                                           + "reach as a single server: the queues whose slots its other masters serve "
                                           + "would fail with MOVED, and a failover of this node would not be followed. "
                                           + "Give the cluster in a Redisson YAML file (redissonConfig) with "
                                           + "clusterServersConfig and the addresses of its nodes");
    }

    /**
     * A client the application gave (a bean): the application shuts it down, never {@link #shutdown}. A lazily
     * initialized cluster client is warned of: the component can make its first connection one attempt at a time, but
     * not keep Redisson from stalling it after a failed one.
     */
    public static ConnectedClient borrowed(RedissonClient bean) {
        if (bean instanceof Redisson redisson && redisson.getConfig().isLazyInitialization()
                && redisson.getConfig().isClusterConfig()) {
            LOG.warn("The RedissonClient {} is built with lazyInitialization for Redis Cluster: after a failed first "
                     + "connection (a master down, a slot no master serves), Redisson 4.7 can stall its queues for about "
                     + "40 s, or longer with longer timeouts. Build it without lazyInitialization, or leave the client "
                     + "to this component (redissonConfig).",
                    bean);
        }
        return new ConnectedClient(() -> {
            if (bean instanceof Redisson redisson) {
                // a lazily initialized client connects here, or throws why it cannot
                redisson.getCommandExecutor().getConnectionManager().getEntrySet();
            }
            return bean;
        }, bean::getConfig, false);
    }

    /**
     * The client, connected: the first callers wait for one attempt at a time, made on a thread of its own.
     *
     * @throws org.redisson.client.RedisException when it cannot connect (Redis is down, say): the failure of the
     *                                            attempt this caller waited for; or the caller was interrupted
     *                                            meanwhile (the attempt goes on)
     */
    public RedissonClient get() {
        RedissonClient connected = client;
        return connected != null ? connected : await(attempt());
    }

    private synchronized CompletableFuture<RedissonClient> attempt() {
        if (client != null) {
            return CompletableFuture.completedFuture(client);
        }
        if (shutDown) {
            return CompletableFuture.failedFuture(new RedisConnectionException("The client is shut down"));
        }
        if (attempt == null) {
            CompletableFuture<RedissonClient> started = new CompletableFuture<>();
            attempt = started;
            long waitNanos = nextAttemptNanos - System.nanoTime();
            Thread connecting = new Thread(() -> connect(started, waitNanos), "RedisDelayConnect");
            connecting.setDaemon(true);
            connecting.start();
        }
        return attempt;
    }

    /**
     * Makes one attempt once {@code waitNanos} have passed, on a thread that no stop interrupts: Redisson shuts a
     * client that failed to connect down only when the failure was not an interrupt.
     */
    private void connect(CompletableFuture<RedissonClient> started, long waitNanos) {
        try {
            if (waitNanos > 0) {
                TimeUnit.NANOSECONDS.sleep(waitNanos);
            }
            if (shutDown) {
                throw new RedisConnectionException("The client is shut down");
            }
            synchronized (this) {
                nextAttemptNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ATTEMPT_SPACING_MS);
            }
            RedissonClient made = connect.get();
            synchronized (this) {
                client = made;
                attempt = null;
            }
            connectFailure = null;
            if (shutDown) {
                shutDown(made);
            }
            started.complete(made);
        } catch (Throwable e) {
            RuntimeException failure = namingMaster(naming(e));
            connectFailure = failure;
            synchronized (this) {
                attempt = null;
            }
            started.completeExceptionally(failure);
        }
    }

    /**
     * {@code failure}, as a RedisConnectionException whose message names its root cause when its own does not
     * ({@link RootCause}).
     */
    private static RuntimeException naming(Throwable failure) {
        String message = String.valueOf(failure.getMessage());
        String named = RootCause.added(message, failure);
        if (!named.equals(message)) {
            return new RedisConnectionException(named, failure);
        }
        return failure instanceof RuntimeException runtime
                ? runtime
                : new RedisConnectionException("Cannot create the Redis client: " + failure, failure);
    }

    /**
     * {@code failure}, naming the master name and the Sentinels asked when the Sentinels know no master of that name,
     * which Redisson's own message does not.
     */
    private RuntimeException namingMaster(RuntimeException failure) {
        Config given = config.get();
        if (!given.isSentinelConfig() || !String.valueOf(failure.getMessage()).contains("GET-MASTER-ADDR-BY-NAME")) {
            return failure;
        }
        SentinelServersConfig sentinels = new Config(given).useSentinelServers();
        return new RedisConnectionException(
                "No Sentinel of [" + addresses() + "] knows a master named '" + sentinels.getMasterName()
                                            + "' (masterName of the Redisson configuration): " + failure.getMessage(),
                failure);
    }

    /**
     * Why the last attempt to connect failed, naming its root cause; {@code null} before the first attempt fails and
     * once one succeeds.
     */
    public RuntimeException connectFailure() {
        return connectFailure;
    }

    /**
     * Whether calls to the master serving {@code key} are waiting for a free connection of the client's pool right now;
     * {@code false} while the client has not connected (asked without connecting).
     */
    public boolean callsWaitForConnection(String key) {
        RedissonClient connected = client;
        return connected != null && ConnectionWaits.queuedFor(connected, key);
    }

    private static RedissonClient await(CompletableFuture<RedissonClient> attempt) {
        try {
            return attempt.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisConnectionException("Interrupted while waiting for the client's first connection", e);
        } catch (ExecutionException e) {
            // connect(...) fails the attempt with a RuntimeException only
            throw (RuntimeException) e.getCause();
        }
    }

    /**
     * {@code reply} of a call on this client; it fails should the client shut down before Redis answers, which Redisson
     * does not do for every call ({@link CallsInFlight}).
     */
    public <R> CompletionStage<R> watch(CompletionStage<R> reply) {
        return inFlight.watch(reply);
    }

    private boolean hasShutDown() {
        RedissonClient connected = client;
        return connected != null && connected.isShutdown();
    }

    /** The client's configuration, read without connecting. */
    public Config config() {
        return config.get();
    }

    /** The addresses of the servers its configuration names, comma-separated, passwords masked. */
    public String addresses() {
        return ServerSettings.addresses(config()).stream().map(AddressText::of).collect(Collectors.joining(","));
    }

    /**
     * Shuts the client down if the component created it, waiting at most 200 ms for its commands in flight, then fails
     * those left unanswered; a client still connecting is shut down once connected.
     */
    public void shutdown() {
        if (!owned) {
            return;
        }
        shutDown = true;
        RedissonClient connected = client;
        if (connected != null) {
            shutDown(connected);
            inFlight.failAll();
        }
    }

    private static void shutDown(RedissonClient connected) {
        if (!connected.isShuttingDown()) {
            connected.shutdown(0, SHUTDOWN_MS, TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public String toString() {
        RedissonClient connected = client;
        return connected != null ? connected.toString() : "Redisson client, not connected";
    }
}
