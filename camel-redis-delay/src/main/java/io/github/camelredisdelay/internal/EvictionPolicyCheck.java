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

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warns when Redis may evict a queue's keys, which loses messages without a trace: a {@code maxmemory-policy} of
 * {@code allkeys-*} evicts any key under memory pressure. (The {@code volatile-*} policies evict only keys with a time
 * to live, and the component sets none.) Checked at start, after every reconnect and while the queue's endpoints run (a
 * managed Redis applies a changed policy at once, without closing connections), at most once a minute per queue shard;
 * one WARN per policy and connection a minute however many queues share the connection, and while the queue's endpoints
 * run only when the policy is not the one read last; where {@code INFO} is not allowed (ACL, managed Redis), one DEBUG
 * line a minute.
 */
public final class EvictionPolicyCheck {

    private static final Logger LOG = LoggerFactory.getLogger(EvictionPolicyCheck.class);

    private static final long QUIET_NANOS = TimeUnit.MINUTES.toNanos(1);
    /**
     * How often an endpoint asks for a check of its queue's shards: each is then read at most a minute and a half
     * apart.
     */
    private static final long WATCH_EVERY_SECONDS = 30;

    /** Most queue shards whose check it remembers: one forgotten is only checked again sooner. */
    static final int REMEMBERED_SHARDS = 1_024;

    /** When each "connection|policy" was last reported, System.nanoTime(). */
    private final Map<String, Long> reported = new ConcurrentHashMap<>();
    /**
     * When each "connection|shard" was last checked, and the policy read then, the least recently checked forgotten
     * first: queues come and go (named per request, per day) while the component lives. Guarded by itself.
     */
    private final Map<String, Checked> checked = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Checked> eldest) {
            return size() > REMEMBERED_SHARDS;
        }
    };

    /** Whether {@code policy} can evict keys without a time to live. */
    public static boolean evicts(String policy) {
        return policy.startsWith("allkeys-");
    }

    /**
     * Reads the policy of the node holding {@code shard} without waiting for the reply, and warns once when it evicts.
     * The client's first call may still block the caller for its connect ({@link ConnectedClient}): call it from a
     * thread that may wait.
     *
     * @param connection identifies the client, e.g. its address
     */
    public void checkSoon(QueueShard shard, String connection) {
        check(shard, connection, false);
    }

    /**
     * Checks {@code shard} now and then every 30 s on {@code timer}, as {@link #checkSoon} does, until the returned
     * future is cancelled; after the first check it warns only of an evicting policy that is not the one read last, so
     * that a policy chosen knowingly is not named every minute.
     */
    public ScheduledFuture<?> watch(QueueShard shard, String connection, ScheduledExecutorService timer) {
        return timer.scheduleWithFixedDelay(() -> check(shard, connection, true), 0, WATCH_EVERY_SECONDS, TimeUnit.SECONDS);
    }

    private void check(QueueShard shard, String connection, boolean onlyIfChanged) {
        // the endpoints of a queue (producer and consumer) and its transfer task's first subscription all ask at start:
        // one INFO a minute per shard is enough
        String key = connection + "|" + shard.keys().due();
        long now = System.nanoTime();
        String before;
        synchronized (checked) {
            Checked last = checked.get(key);
            if (last != null && now - last.atNanos() <= QUIET_NANOS) {
                return;
            }
            before = last == null ? null : last.policy();
            checked.put(key, new Checked(now, before));
        }
        CompletionStage<String> read;
        try {
            read = shard.memoryPolicyAsync();
        } catch (RuntimeException e) {
            // Redisson throws instead of failing the stage when it cannot connect; a watch goes on after it
            read = CompletableFuture.failedFuture(e);
        }
        read.whenComplete((policy, error) -> {
            if (error != null) {
                reportUnreadable(shard, connection, error);
                return;
            }
            synchronized (checked) {
                checked.computeIfPresent(key, (any, last) -> new Checked(last.atNanos(), policy));
            }
            if (evicts(policy) && !(onlyIfChanged && policy.equals(before)) && firstInAMinute(connection + "|" + policy)) {
                LOG.warn("Redis holding queue {} has maxmemory-policy {}: under memory pressure it evicts any key, and an "
                         + "evicted queue key loses messages without a trace. Set maxmemory-policy to noeviction (or a "
                         + "volatile-* policy) on that server; requireNoEviction=true makes this a startup failure.",
                        shard.name(), policy);
            }
        });
    }

    /**
     * Reads the policy now.
     *
     * @throws IllegalStateException when it evicts
     */
    public static void require(QueueShard shard) {
        String policy;
        try {
            policy = shard.memoryPolicyAsync().toCompletableFuture().join();
        } catch (CompletionException e) {
            throw new IllegalStateException(
                    "requireNoEviction=true on queue " + shard.name()
                                            + ", but its Redis' maxmemory-policy cannot be read: " + e.getCause(),
                    e.getCause());
        }
        if (evicts(policy)) {
            throw new IllegalStateException(
                    "Redis holding queue " + shard.name() + " has maxmemory-policy " + policy
                                            + ", which can evict the queue's keys and lose messages; set it to noeviction,"
                                            + " or requireNoEviction=false to only warn");
        }
    }

    private boolean firstInAMinute(String key) {
        long now = System.nanoTime();
        boolean[] first = new boolean[1];
        reported.compute(key, (any, last) -> {
            first[0] = last == null || now - last > QUIET_NANOS;
            return first[0] ? now : last;
        });
        return first[0];
    }

    /** How many queue shards and reports it remembers, for tests. */
    int remembered() {
        synchronized (checked) {
            return reported.size() + checked.size();
        }
    }

    /** When a queue shard was last checked (System.nanoTime()), and the policy read then, {@code null} if none yet. */
    private record Checked(long atNanos, String policy) {
    }

    private void reportUnreadable(QueueShard shard, String connection, Throwable error) {
        if (firstInAMinute(connection + "|?")) {
            LOG.debug("Cannot read the maxmemory-policy of the Redis holding queue {} (INFO not allowed?): {}", shard.name(),
                    error.toString());
        }
    }
}
