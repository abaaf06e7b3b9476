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

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

import io.github.camelredisdelay.DuplicateMessageException;
import io.github.camelredisdelay.NotReplicatedException;
import io.github.camelredisdelay.OnDuplicate;
import io.github.camelredisdelay.internal.ScriptCalls.Durability;
import org.redisson.api.RScript;
import org.redisson.client.RedisConnectionException;
import org.redisson.client.RedisException;
import org.redisson.client.RedisTimeoutException;
import org.redisson.client.codec.StringCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static io.github.camelredisdelay.internal.Replies.bytes;
import static io.github.camelredisdelay.internal.Replies.text;
import static io.github.camelredisdelay.internal.Replies.toLong;

/**
 * One queue, or one shard of a sharded queue ({@link ShardedQueue}): its keys share one hash tag, so every script
 * touches a single cluster slot. Changes run as one Lua script each ({@link ScriptCalls}), so they are atomic; the
 * consumer side is its {@link ConsumerGroup}.
 */
public final class QueueShard {

    private static final Logger LOG = LoggerFactory.getLogger(QueueShard.class);

    private final ConnectedClient client;
    private final QueueKeys keys;
    private final ScriptCalls scripts;
    private final WriteSync sync;
    private final ConsumerGroup group;
    private final ShardInspection inspection;
    private final ShardMigration migration;
    private final GroupCommit<ScheduleRequest, ScheduleResult> schedules;

    public QueueShard(ConnectedClient client, QueueKeys keys) {
        this(client, keys, WriteSync.NONE, Runnable::run);
    }

    /**
     * @param sync      how long schedules, cancels, reschedules and acknowledgements wait for replicas
     * @param completer where the stages of {@link #scheduleAsync} complete: one task per script call
     */
    public QueueShard(ConnectedClient client, QueueKeys keys, WriteSync sync, Executor completer) {
        this.client = client;
        this.keys = keys;
        this.scripts = new ScriptCalls(client, keys, sync);
        this.sync = sync;
        this.group = new ConsumerGroup(client, keys, scripts);
        this.inspection = new ShardInspection(scripts, keys.queue());
        this.migration = new ShardMigration(scripts);
        this.schedules = new GroupCommit<>(
                this::scheduleAllAsync, BatchLimits.GROUP_COMMIT_MESSAGES,
                request -> request.envelope().length, BatchLimits.GROUP_COMMIT_BYTES, completer, ScheduleRequest::id,
                SecondCalls.onLongLinkOrWhenFaster(Duration.ofNanos(RoundTrips.LONG_LINK_NANOS)), QueueShard::unanswered);
    }

    public QueueKeys keys() {
        return keys;
    }

    public String name() {
        return keys.queue();
    }

    /** Reading and settling deliveries. */
    public ConsumerGroup group() {
        return group;
    }

    /** Reading messages without delivering them, and removing them: browse, peek, purge, redrive. */
    public ShardInspection inspection() {
        return inspection;
    }

    /** Writing messages moved from an {@code RDelayedQueue}. */
    public ShardMigration migration() {
        return migration;
    }

    /**
     * Stores a message; see {@code schedule.lua}. Concurrent calls share script calls ({@link GroupCommit}). The call
     * may be sent again when its reply is late: a message the repeat finds under {@code id} is taken for the caller's.
     *
     * @throws DuplicateMessageException when {@code onDuplicate} is {@code fail} and the id exists
     */
    public ScheduleResult schedule(String id, byte[] envelope, DueTime due, OnDuplicate onDuplicate) {
        return schedule(new ScheduleRequest(id, envelope, due, onDuplicate));
    }

    /** {@link #schedule(String, byte[], DueTime, OnDuplicate)} of a request, sent once if it says so. */
    public ScheduleResult schedule(ScheduleRequest request) {
        String id = request.id();
        DueTime due = request.due();
        ScheduleResult result;
        try {
            result = schedules.submit(request);
        } catch (RuntimeException e) {
            throw (RuntimeException) ownFailure(e, id);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisException(
                    "Interrupted while scheduling message " + LogText.of(id) + " on queue " + name()
                                     + "; it is stored if its script call had already been sent",
                    e);
        }
        return result.orThrow(name(), id, due);
    }

    /**
     * Stores a message without waiting; see {@link #schedule}. The stage completes on the completer given to the
     * constructor, with the outcome or the failure {@link #schedule} would throw.
     */
    public CompletionStage<ScheduleResult> scheduleAsync(String id, byte[] envelope, DueTime due, OnDuplicate onDuplicate) {
        return scheduleAsync(new ScheduleRequest(id, envelope, due, onDuplicate));
    }

    /** {@link #scheduleAsync(String, byte[], DueTime, OnDuplicate)} of a request, sent once if it says so. */
    public CompletionStage<ScheduleResult> scheduleAsync(ScheduleRequest request) {
        return schedules.submitAsync(request).handle((result, failure) -> {
            if (failure == null) {
                return result.orThrow(name(), request.id(), request.due());
            }
            throw new CompletionException(ownFailure(Futures.unwrap(failure), request.id()));
        });
    }

    /**
     * The failure of a call that carried the schedule of message {@code id}, maybe among others, as that schedule's own
     * ({@link OwnFailure}): the other schedules' exchanges must not see what this one's error handling adds to it.
     */
    private Throwable ownFailure(Throwable failure, String id) {
        if (failure instanceof GroupCommit.NotSent unsent) {
            return notStored(unsent.getCause(), id);
        }
        if (failure instanceof NotReplicatedException shortfall) {
            return ownShortfall(shortfall, id);
        }
        Throwable plain = scripts.plainly(failure, scheduleOf(id), LuaScript.SCHEDULE);
        return plain != null ? plain : OwnFailure.of(failure);
    }

    /**
     * A call of {@code script} that must be written ({@link Durability#REQUIRED}), said plainly when Redis refuses it.
     */
    private <R> R callPlainly(String operation, LuaScript script, RScript.ReturnType type, Object... args) {
        return scripts.callAndWait(operation, script, Durability.REQUIRED, type, args);
    }

    /**
     * The failure of a schedule that was never sent: the script call ahead of it got no answer ({@link #unanswered}),
     * and it failed with it. Of the same type as that call's failure, caused by it, and saying that the message is
     * certainly not stored, where the schedules the call carried may be.
     */
    private Throwable notStored(Throwable failure, String id) {
        return OwnFailure.of(failure, scheduleOf(id) + " on queue " + name() + " was not sent, so the message is not "
                                      + "stored: the script call ahead of it got no answer (" + failure.getMessage() + ")");
    }

    /**
     * The shortfall of replicas of a call that carried the schedule of message {@code id}, maybe among others, as that
     * schedule's own: it names the message, whose id a retry must use, not the call's count of messages.
     */
    private NotReplicatedException ownShortfall(NotReplicatedException shortfall, String id) {
        return new NotReplicatedException(
                name(), shortfall.getHashTag(), scheduleOf(id), shortfall.getRequired(), shortfall.getReached(),
                sync.timeoutMs(), sync.aof());
    }

    private static String scheduleOf(String id) {
        return "Schedule of message " + LogText.of(id);
    }

    /** "Schedule of message 42", or "Schedule of 3 messages" for a call that carries several. */
    private static String scheduleOf(List<ScheduleRequest> requests) {
        return requests.size() == 1 ? scheduleOf(requests.get(0).id()) : "Schedule of " + requests.size() + " messages";
    }

    /**
     * Stores messages in one script call; see {@code schedule.lua}. Each has its own outcome: a duplicate or an
     * overflowing due time is returned as such, not thrown, and does not keep the others from being stored. An error
     * Redis replies to the call is said plainly ({@link ScriptCalls#plainly}).
     *
     * @return the outcomes, in request order
     */
    public List<ScheduleResult> scheduleAll(List<ScheduleRequest> requests) {
        return scheduleResults(Futures.await(scripts.saidPlainly(scheduleCall(requests), scheduleOf(requests),
                LuaScript.SCHEDULE)));
    }

    private CompletionStage<List<ScheduleResult>> scheduleAllAsync(List<ScheduleRequest> requests) {
        return scheduleCall(requests).thenApply(QueueShard::scheduleResults);
    }

    /** The call of {@code schedule.lua} for {@code requests}: sent once when one of them must be. */
    private CompletionStage<List<Object>> scheduleCall(List<ScheduleRequest> requests) {
        String operation = scheduleOf(requests);
        Object[] args = scheduleArgs(requests);
        for (ScheduleRequest request : requests) {
            if (request.sentOnce()) {
                return scripts.callOnce(operation, LuaScript.SCHEDULE, Durability.REQUIRED, RScript.ReturnType.LIST, args);
            }
        }
        return scripts.call(operation, LuaScript.SCHEDULE, Durability.REQUIRED, RScript.ReturnType.LIST, args);
    }

    /** {@code schedule.lua}'s five arguments of each request, in request order. */
    private static Object[] scheduleArgs(List<ScheduleRequest> requests) {
        List<Object> args = new ArrayList<>(requests.size() * 5);
        for (ScheduleRequest request : requests) {
            args.add(bytes(request.id()));
            args.add(request.envelope());
            args.add(mode(request.due()));
            args.add(bytes(request.due().millis()));
            args.add(bytes(request.onDuplicate().name()));
        }
        return args.toArray();
    }

    /**
     * Whether a call failed for want of an answer (none in time, no connection): the schedules queued behind it would
     * wait as long for none, so they fail with it, unsent ({@link GroupCommit}). A call the client's pool held back
     * ({@link ClientShortage}) says nothing of Redis: the next call gets the connection that frees first.
     */
    private static boolean unanswered(Throwable failure) {
        return (failure instanceof RedisTimeoutException || failure instanceof RedisConnectionException)
                && ClientShortage.advice(failure) == null;
    }

    private static List<ScheduleResult> scheduleResults(List<Object> reply) {
        long now = toLong(reply.get(0));
        List<ScheduleResult> results = new ArrayList<>(reply.size() / 2);
        for (int i = 1; i < reply.size(); i += 2) {
            results.add(new ScheduleResult(ScheduleResult.Status.ofCode(toLong(reply.get(i))), toLong(reply.get(i + 1)), now));
        }
        return results;
    }

    /**
     * Removes a scheduled message; see {@code cancel.lua}.
     *
     * @return {@code true} when it was scheduled and is now gone; {@code false} when unknown, ready or in flight
     */
    public boolean cancel(String id) {
        // sent once: a repeat would find nothing left to remove and answer false (ScriptCalls.callOnce)
        Long removed = scripts.callOnceAndWait("Cancel of message " + LogText.of(id), LuaScript.CANCEL, Durability.REQUIRED,
                RScript.ReturnType.LONG, bytes(id));
        return removed == 1;
    }

    /**
     * Gives a scheduled message a new due time; see {@code reschedule.lua}.
     *
     * @return                          the outcome; not scheduled when the message is unknown, ready or in flight
     * @throws IllegalArgumentException when the due time is beyond 2^53-1 ms
     */
    public ScheduleResult reschedule(String id, DueTime due) {
        List<Object> result = callPlainly("Reschedule of message " + LogText.of(id), LuaScript.RESCHEDULE,
                RScript.ReturnType.LIST, bytes(id), mode(due), bytes(due.millis()));
        return new ScheduleResult(
                ScheduleResult.Status.ofCode(toLong(result.get(0))), toLong(result.get(1)),
                toLong(result.get(2))).orThrow(name(), id, due);
    }

    private static byte[] mode(DueTime due) {
        return bytes(due.absolute() ? "at" : "delay");
    }

    /**
     * Moves at most {@code batchSize} due messages to the ready stream; see {@code transfer.lua}.
     */
    public CompletionStage<TransferResult> transfer(int batchSize) {
        // a transfer lost in a failover is repeated: the messages are still in the due set of the new master
        CompletionStage<List<Object>> reply = scripts.call("Transfer", LuaScript.TRANSFER, Durability.NONE,
                RScript.ReturnType.LIST, bytes(batchSize));
        return reply.thenApply(result -> new TransferResult(toLong(result.get(0)), toLong(result.get(1))));
    }

    /**
     * Counts the queue's messages by state; see {@code stats.lua}.
     */
    public QueueCounts counts() {
        return Futures.await(countsAsync());
    }

    /** {@link #counts}, when Redis answers. */
    public CompletionStage<QueueCounts> countsAsync() {
        CompletionStage<List<Object>> reply
                = scripts.callPlainly("Statistics", LuaScript.STATS, Durability.NONE, RScript.ReturnType.LIST);
        return reply.thenApply(result -> new QueueCounts(
                toLong(result.get(0)), toLong(result.get(1)), toLong(result.get(2)),
                toLong(result.get(3)), toLong(result.get(4))));
    }

    /**
     * All messages of the queue, whatever their state.
     */
    public long size() {
        return Futures.await(sizeAsync());
    }

    /** {@link #size}, when Redis answers. */
    public CompletionStage<Integer> sizeAsync() {
        return client.get().getMap(keys.msg(), StringCodec.INSTANCE).sizeAsync();
    }

    /**
     * Checks that the master of this queue takes the queue's writes; see {@code probe.lua}. With
     * {@link Durability#REQUIRED}, also that a write reaches the replicas a schedule's must.
     *
     * @return completes when Redis answered; fails with its refusal (such as OOM or READONLY;
     *         {@code NotReplicatedException})
     */
    public CompletionStage<Long> probeWriteAsync(Durability durability) {
        return scripts.call("Write probe", LuaScript.PROBE, durability, RScript.ReturnType.LONG);
    }

    /** Why the client of this shard has not connected yet, naming the root cause; {@code null} once it has. */
    public RuntimeException connectFailure() {
        return client.connectFailure();
    }

    /**
     * Whether calls to this shard's master are waiting for a free connection of the client's pool right now, so that a
     * call without an answer is held in the client, not by Redis.
     */
    public boolean callsWaitForConnection() {
        return client.callsWaitForConnection(keys.due());
    }

    /**
     * Redis' clock, epoch ms.
     */
    public long redisTimeMillis() {
        return redisTimeMillisAsync().toCompletableFuture().join();
    }

    /**
     * Redis' clock, epoch ms, when it answers.
     */
    public CompletionStage<Long> redisTimeMillisAsync() {
        return scripts.call("Clock", LuaScript.TIME, Durability.NONE, RScript.ReturnType.LONG);
    }

    /**
     * Records or confirms {@code shards} as the queue's shard count (call on shard 0); see {@code shard-count.lua}.
     *
     * @param  replace         to record it in place of another count that no endpoint confirmed within
     *                         {@code inUseWithinMs} (the caller found that count's shards empty)
     * @param  recordWhereNone to record it where none is recorded (false once the caller saw another count in use)
     * @return                 the count recorded now, and how long ago an endpoint with it confirmed it
     */
    public CompletionStage<RecordedShardCount> recordShardCountAsync(
            int shards, boolean replace, long inUseWithinMs,
            boolean recordWhereNone, OwnUse ownUse, boolean takeBack) {
        CompletionStage<List<Object>> reply = scripts.call("Shard count", LuaScript.SHARD_COUNT, Durability.NONE,
                RScript.ReturnType.LIST, bytes(shards), bytes(replace ? 1 : 0), bytes(inUseWithinMs),
                bytes(recordWhereNone ? 1 : 0), bytes(ownUse == null ? "" : String.valueOf(ownUse.since())),
                bytes(ownUse == null ? "" : String.valueOf(ownUse.lastConfirmedAt())), bytes(takeBack ? 1 : 0));
        return reply.thenApply(result -> new RecordedShardCount(
                (int) toLong(result.get(0)), toLong(result.get(1)), toLong(result.get(2)), toLong(result.get(3)),
                toLong(result.get(4)) == 1,
                result.size() > 5 ? new MissingCommand(Replies.text(result.get(5)), Replies.text(result.get(6))) : null));
    }

    /**
     * A queue's recorded shard count.
     *
     * @param count            the count; 0 when none is recorded and the caller did not record its own
     * @param unconfirmedForMs how long ago an endpoint with that count last confirmed it
     * @param since            when that count's use began (Redis' epoch ms)
     * @param now              Redis' time of the check (epoch ms)
     * @param madeAgain        the record was lost with Redis' data and made again by an endpoint that did not see the
     *                         caller's count in use, and the caller did not take it back
     * @param missing          a command the component needs that the server lacks, or {@code null}: then nothing was
     *                         recorded
     */
    public record RecordedShardCount(
            int count, long unconfirmedForMs, long since, long now, boolean madeAgain, MissingCommand missing) {
    }

    /**
     * An endpoint's use of its shard count, as its checks found it: when that count's use began, and when the endpoint
     * last recorded or confirmed it (Redis' epoch ms).
     */
    public record OwnUse(long since, long lastConfirmedAt) {
    }

    /**
     * A command the component needs that the server holding a queue lacks.
     *
     * @param command its name
     * @param server  the server's name and version, such as {@code Valkey 8.0.1} or {@code Redis 7.0.15}; empty when
     *                {@code INFO} is not allowed
     */
    public record MissingCommand(String command, String server) {
    }

    /**
     * The {@code maxmemory-policy} of the node that holds this queue, read from {@code INFO}; see
     * {@code memory-policy.lua}.
     */
    public CompletionStage<String> memoryPolicyAsync() {
        return scripts.<byte[]>call("Eviction policy", LuaScript.MEMORY_POLICY, Durability.NONE, RScript.ReturnType.VALUE)
                .thenApply(policy -> new String(policy, StandardCharsets.UTF_8));
    }

    /**
     * Fails when Redis refuses the wait this shard's writes ask for (syncAof on a server without WAITAOF or without an
     * append-only file): every write would fail, and a consumer would stall after its first batch, unable to
     * acknowledge it. Returns when the wait works, and when Redis does not answer, with a warning: writes fail with the
     * same reason once it does.
     *
     * @return whether Redis answered the check
     */
    public boolean requireWritesCanWait() {
        try {
            Futures.await(scripts.checkWait());
            return true;
        } catch (RedisException e) {
            // Redis out of reach or slow (Redisson may throw it before it returns the future): nothing to tell yet
            LOG.warn("Redis holding queue {} did not answer the check that syncAof=true asks for at start ({}); the queue "
                     + "starts unchecked, and its writes fail naming the reason if Redis cannot wait for its append-only "
                     + "file",
                    name(), e.toString());
            return false;
        }
    }
}
