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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import org.redisson.client.RedisException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps an endpoint from using a queue it would get wrong: one stored in another shard count than its {@code shards},
 * or held by a server that lacks a command the component needs (see {@code shard-count.lua}). For the shard count: the
 * first endpoint of a queue records its count in Redis, and every running endpoint with that count confirms it every
 * {@value #CONFIRM_EVERY_MS} ms. An endpoint with another count has a {@link #problem()} (its operations fail, its
 * consumers read nothing, the problem is logged as an ERROR), as has one whose server lacks a command, while the
 * recorded count's shards hold messages or an endpoint with that count confirmed it within {@value #IN_USE_WITHIN_MS}
 * ms; otherwise its count replaces the recorded one (how a queue that is empty, and whose endpoints are all stopped,
 * changes its count). Checks run off the caller's thread, at start and then every {@value #CONFIRM_EVERY_MS} ms (also
 * while Redis does not answer), so a problem that appears later (another endpoint took over the record while this one
 * could not confirm it) or goes away is found too. Until the first check answers, {@link #requireAnswer} asks at once
 * and waits for it: no operation acts on the queue unchecked.
 */
public final class QueueGuard {

    /** How often a running endpoint confirms, or checks again, its queue's shard count. */
    static final long CONFIRM_EVERY_MS = 10_000;
    /** A count confirmed within this time is in use: no endpoint may record another. */
    static final long IN_USE_WITHIN_MS = 30_000;

    private static final Logger LOG = LoggerFactory.getLogger(QueueGuard.class);

    private final ConnectedClient client;
    private final String keyPrefix;
    private final ShardedQueue queue;
    /** The endpoints that share the check, once per endpoint; guarded by itself. */
    private final List<Sharer> endpoints = new ArrayList<>();
    private final AtomicReference<CompletableFuture<Void>> underWay = new AtomicReference<>();
    private final CompletableFuture<Void> answered = new CompletableFuture<>();
    private volatile boolean running;
    private volatile String problem;
    private volatile ShardedQueue recordedShards;
    /**
     * Another count than this endpoint's that was last seen in use, or {@code null}. Until it is no longer known to be
     * in use this endpoint does not record its count where none is recorded: the record was lost with Redis' data (a
     * restart without persistence), and the endpoints that use the other count record it again.
     */
    private volatile OtherCount otherCountInUse;
    /**
     * This endpoint's count's use as its last check that found it recorded saw it: a record made again by another
     * endpoint after Redis lost it, later than that check, is this count's to take back.
     */
    private volatile QueueShard.OwnUse ownUse;
    private ScheduledFuture<?> checks;

    public QueueGuard(ConnectedClient client, String keyPrefix, ShardedQueue queue) {
        this.client = client;
        this.keyPrefix = keyPrefix;
        this.queue = queue;
    }

    /**
     * Adds an endpoint that shares the check (one of the queue, or one whose consumer dead-letters there): a problem is
     * logged as an ERROR for each, so that the operator learns every endpoint to change, not only the first.
     *
     * @param endpoint its URI, sanitized
     * @param role     put before the problem in its ERROR: empty for an endpoint of the queue, else how the endpoint
     *                 uses the queue (its consumer dead-letters there)
     */
    public void join(String endpoint, String role) {
        Sharer sharer = new Sharer(endpoint, role);
        String found;
        synchronized (endpoints) {
            endpoints.add(sharer);
            found = problem;
        }
        if (found != null) {
            sharer.logError(found);
        }
    }

    /** Removes an endpoint that {@link #join joined}, with the same arguments. */
    public void leave(String endpoint, String role) {
        synchronized (endpoints) {
            endpoints.remove(new Sharer(endpoint, role));
        }
    }

    /** Checks now and then every {@value #CONFIRM_EVERY_MS} ms, on {@code timer}. */
    public synchronized void start(ScheduledExecutorService timer) {
        running = true;
        checks = timer.scheduleWithFixedDelay(() -> check(), 0, CONFIRM_EVERY_MS, TimeUnit.MILLISECONDS);
    }

    public synchronized void stop() {
        running = false;
        if (checks != null) {
            checks.cancel(false);
            checks = null;
        }
        problem = null;
    }

    /**
     * @return why this endpoint's {@code shards} cannot be used, or {@code null} when it agrees with its queue's (or no
     *         check has answered yet)
     */
    public String problem() {
        return problem;
    }

    /**
     * Completes once a check has answered (asking at once when none has), so that the caller acts only on a checked
     * queue; at once when one has.
     *
     * @return a stage that fails with Redis' error when Redis cannot be asked (it is down, say), as any operation then
     *         fails, and with an {@link IllegalStateException} when the check fails otherwise or Redis does not answer
     *         within {@code wait}
     */
    public CompletableFuture<Void> answer(Duration wait) {
        if (answered.isDone()) {
            return answered;
        }
        return check().copy().orTimeout(wait.toMillis(), TimeUnit.MILLISECONDS).handle((done, error) -> {
            if (error == null) {
                return null;
            }
            Throwable cause = error instanceof CompletionException ? error.getCause() : error;
            if (cause instanceof RedisException redis) {
                // the check's failure, which every caller waiting for it shares
                throw new CompletionException(OwnFailure.of(redis));
            }
            throw new CompletionException(
                    new IllegalStateException(
                            "Cannot check the shard count of queue " + queue.name() + ": "
                                              + (cause instanceof TimeoutException
                                                      ? "Redis did not answer within "
                                                        + wait.toMillis() + " ms"
                                                      : cause.getMessage()),
                            cause));
        });
    }

    /**
     * Waits, at most {@code wait}, for {@link #answer}.
     *
     * @throws org.redisson.client.RedisException when Redis cannot be asked
     * @throws IllegalStateException              when the check fails otherwise or Redis did not answer in time
     */
    public void requireAnswer(Duration wait) {
        try {
            answer(wait).join();
        } catch (CompletionException e) {
            throw (RuntimeException) e.getCause();
        }
    }

    /** Starts a check, unless one is under way; either way returns when it ends. */
    private CompletableFuture<Void> check() {
        CompletableFuture<Void> attempt = new CompletableFuture<>();
        CompletableFuture<Void> earlier = underWay.compareAndExchange(null, attempt);
        if (earlier != null) {
            return earlier;
        }
        CompletionStage<String> checked;
        try {
            checked = compare();
        } catch (RuntimeException e) {
            // Redisson throws instead of failing the future when it cannot connect
            checked = CompletableFuture.failedFuture(e);
        }
        checked.whenComplete((found, error) -> {
            underWay.set(null);
            if (running) {
                settle(found, error);
            }
            if (error != null) {
                attempt.completeExceptionally(error);
            } else {
                attempt.complete(null);
            }
        });
        return attempt;
    }

    private void settle(String found, Throwable error) {
        if (error != null) {
            LOG.debug("Cannot check the shard count of queue {} yet: {}", queue.name(), error.toString());
            return;
        }
        String was;
        List<Sharer> sharing;
        synchronized (endpoints) {
            was = problem;
            problem = found;
            sharing = List.copyOf(endpoints);
        }
        if (found == null && was != null) {
            LOG.info("Endpoints {}: queue {} can be used again; the problem was: {}",
                    sharing.stream().map(Sharer::endpoint).toList(), queue.name(), was);
        } else if (found != null && was == null) {
            sharing.forEach(sharer -> sharer.logError(found));
        }
        answered.complete(null);
    }

    /**
     * @return when Redis answered: {@code null} when this endpoint's count is the one recorded now, else the problem
     */
    private CompletionStage<String> compare() {
        int shards = queue.all().size();
        QueueShard first = queue.first();
        OtherCount other = otherCountInUse;
        boolean recordWhereNone = other == null || System.nanoTime() - other.inUseUntilNanos() > 0;
        QueueShard.OwnUse use = ownUse;
        return first.recordShardCountAsync(shards, false, IN_USE_WITHIN_MS, recordWhereNone, use, false)
                .thenCompose(recorded -> {
                    if (recorded.missing() != null) {
                        return CompletableFuture.completedFuture(missingCommandProblem(recorded.missing()));
                    }
                    if (recorded.count() == shards) {
                        ownUse = new QueueShard.OwnUse(recorded.since(), recorded.now());
                        return CompletableFuture.completedFuture(null);
                    }
                    if (recorded.count() == 0) {
                        // none recorded, and another count was in use moments ago: as it was until its endpoints record it again
                        return CompletableFuture.completedFuture(problem != null
                                ? problem
                                : "Queue " + queue.name() + " has no recorded shard count, and shards=" + other.count()
                                  + " was in use within the last " + IN_USE_WITHIN_MS / 1000 + " s, but this endpoint has "
                                  + "shards=" + shards + ". Use shards=" + other.count() + " on every endpoint of the queue");
                    }
                    if (recorded.madeAgain()) {
                        // made again after Redis lost it, by an endpoint that did not see this count in use: taken back,
                        // unless that endpoint stored messages in shards of its count that are not this count's
                        return heldOnlyInShardsOf(recorded.count()).thenCompose(held -> held > 0
                                ? otherCount(recorded, shards, first, recordWhereNone, use)
                                : takeBack(recorded, shards, first, recordWhereNone, use));
                    }
                    return otherCount(recorded, shards, first, recordWhereNone, use);
                });
    }

    /** Another count is recorded: refused while it is in use or its shards hold messages, else replaced. */
    private CompletionStage<String> otherCount(
            QueueShard.RecordedShardCount recorded, int shards, QueueShard first, boolean recordWhereNone,
            QueueShard.OwnUse use) {
        if (recorded.unconfirmedForMs() <= IN_USE_WITHIN_MS) {
            otherCountInUse = new OtherCount(
                    recorded.count(), System.nanoTime()
                                      + TimeUnit.MILLISECONDS.toNanos(
                                              IN_USE_WITHIN_MS - recorded.unconfirmedForMs()));
            return CompletableFuture.completedFuture("Queue " + queue.name() + " is in use with shards="
                                                     + recorded.count() + " (an endpoint with that count confirmed it "
                                                     + recorded.unconfirmedForMs() + " ms ago), but this endpoint has "
                                                     + "shards=" + shards + ". Use shards=" + recorded.count()
                                                     + " on every endpoint of the queue; to change the count, stop "
                                                     + "every node using it and start them with the new one once it is "
                                                     + "empty (after " + IN_USE_WITHIN_MS / 1000 + " s)");
        }
        ShardedQueue stored = recordedShards(recorded.count());
        return stored.sizeAsync().thenCompose(held -> {
            if (held > 0) {
                return CompletableFuture.completedFuture("Queue " + queue.name() + " is stored in "
                                                         + recorded.count() + " shards, which hold " + held
                                                         + " messages, but this endpoint has shards=" + shards
                                                         + ": those messages would never be delivered. Use shards="
                                                         + recorded.count() + " (on every endpoint of the queue), or "
                                                         + "change it once the queue is empty");
            }
            return first.recordShardCountAsync(shards, true, IN_USE_WITHIN_MS, recordWhereNone, use, false).thenApply(now -> {
                if (now.count() != shards) {
                    return "Queue " + queue.name() + " is in use with shards=" + now.count()
                           + ", but this endpoint has shards=" + shards + ". Use shards=" + now.count()
                           + " on every endpoint of the queue";
                }
                ownUse = new QueueShard.OwnUse(now.since(), now.now());
                LOG.info("Queue {} held no messages and no endpoint used it for {} s: its shard count changes from "
                         + "{} to {}",
                        queue.name(), IN_USE_WITHIN_MS / 1000, recorded.count(), shards);
                return null;
            });
        });
    }

    /**
     * Records this endpoint's count again in place of one an endpoint made after Redis lost the record, which is then
     * refused at its next check.
     */
    private CompletionStage<String> takeBack(
            QueueShard.RecordedShardCount recorded, int shards, QueueShard first, boolean recordWhereNone,
            QueueShard.OwnUse use) {
        return first.recordShardCountAsync(shards, false, IN_USE_WITHIN_MS, recordWhereNone, use, true).thenApply(now -> {
            if (now.count() != shards) {
                return "Queue " + queue.name() + " is in use with shards=" + now.count() + ", but this endpoint has shards="
                       + shards + ". Use shards=" + now.count() + " on every endpoint of the queue";
            }
            ownUse = new QueueShard.OwnUse(now.since(), now.now());
            LOG.warn("Queue {}: an endpoint with shards={} recorded its count after Redis lost the queue's data, while this "
                     + "endpoint used shards={}: the record is taken back (the shards of that count that are not this "
                     + "one's hold no message), and that endpoint is refused",
                    queue.name(), recorded.count(), shards);
            return null;
        });
    }

    /** The messages the shards of {@code count} hold that are not shards of this endpoint's count. */
    private CompletionStage<Long> heldOnlyInShardsOf(int count) {
        Set<String> own = queue.all().stream().map(shard -> shard.keys().msg()).collect(Collectors.toSet());
        List<CompletableFuture<Integer>> sizes = recordedShards(count).all().stream()
                .filter(shard -> !own.contains(shard.keys().msg())).map(shard -> shard.sizeAsync().toCompletableFuture())
                .toList();
        return CompletableFuture.allOf(sizes.toArray(CompletableFuture[]::new))
                .thenApply(done -> sizes.stream().mapToLong(CompletableFuture::join).sum());
    }

    private String missingCommandProblem(QueueShard.MissingCommand missing) {
        String server = missing.server().isEmpty() ? "Redis" : missing.server();
        return server + " holding queue " + queue.name() + " lacks the command " + missing.command()
               + ", with which a consumer takes over the messages of one that stopped or crashed: the component needs "
               + "Redis 6.2 or later (or Valkey), with that command neither renamed nor disabled. Until then this "
               + "endpoint's operations fail and its consumers read nothing; what the queue holds stays";
    }

    /**
     * The shards of the recorded count, made once per count: finding their hash tags takes many CRC16 sums, and this
     * runs on Redisson's I/O thread every {@value #CONFIRM_EVERY_MS} ms while the counts differ.
     */
    private ShardedQueue recordedShards(int count) {
        ShardedQueue made = recordedShards;
        if (made == null || made.all().size() != count) {
            made = ShardedQueue.of(client, keyPrefix, queue.name(), count, WriteSync.NONE, Runnable::run);
            recordedShards = made;
        }
        return made;
    }

    /**
     * A shard count other endpoints used, known to be in use until {@code inUseUntilNanos} ({@link System#nanoTime}).
     */
    private record OtherCount(int count, long inUseUntilNanos) {
    }

    /** An endpoint that shares the check, and how it uses the queue ({@link #join}). */
    private record Sharer(String endpoint, String role) {

        void logError(String problem) {
            LOG.error("Endpoint {}: {}{}", endpoint, role, problem);
        }
    }
}
