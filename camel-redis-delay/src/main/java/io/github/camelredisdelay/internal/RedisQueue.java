package io.github.camelredisdelay.internal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

import io.github.camelredisdelay.DuplicateMessageException;
import io.github.camelredisdelay.NotReplicatedException;
import org.redisson.api.BatchOptions;
import org.redisson.api.RBatch;
import org.redisson.api.RFuture;
import org.redisson.api.RScript;
import org.redisson.api.RStream;
import org.redisson.api.RedissonClient;
import org.redisson.api.stream.StreamCreateGroupArgs;
import org.redisson.api.stream.StreamMessageId;
import org.redisson.api.stream.StreamReadGroupArgs;
import org.redisson.client.RedisException;
import org.redisson.client.codec.ByteArrayCodec;
import org.redisson.client.codec.StringCodec;
import org.redisson.codec.CompositeCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every Redis operation on one queue. Changes run as one Lua script each, so they are atomic; reads of the ready
 * stream go through the queue's consumer group.
 */
public final class RedisQueue {

    /**
     * Stream field names and hash fields (message ids) are text, their values may be binary (the record).
     */
    static final CompositeCodec STREAM_CODEC
            = new CompositeCodec(StringCodec.INSTANCE, ByteArrayCodec.INSTANCE, ByteArrayCodec.INSTANCE);

    private static final Logger LOG = LoggerFactory.getLogger(RedisQueue.class);

    /** The statuses of {@code schedule.lua} and {@code reschedule.lua}, by number. */
    private static final ScheduleResult.Status[] SCHEDULE_STATUSES = {ScheduleResult.Status.UNCHANGED,
            ScheduleResult.Status.SCHEDULED, ScheduleResult.Status.DUPLICATE, ScheduleResult.Status.DUE_OVERFLOW};

    /** Most concurrent schedules sent in one script call. */
    private static final int GROUP_COMMIT_MAX = 100;
    /** Most envelope bytes of concurrent schedules sent in one script call (a larger message goes alone). */
    private static final long GROUP_COMMIT_MAX_BYTES = 1 << 20;

    private final RedissonClient client;
    private final QueueKeys keys;
    private final WriteSync sync;
    private final RScript script;
    private final RStream<String, byte[]> ready;
    private final OutageLog unreplicatedAcks;
    private final GroupCommit<ScheduleRequest, ScheduleResult> schedules;

    public RedisQueue(RedissonClient client, QueueKeys keys) {
        this(client, keys, WriteSync.NONE);
    }

    /**
     * @param sync how long schedules, cancels, reschedules and acknowledgements wait for replicas
     */
    public RedisQueue(RedissonClient client, QueueKeys keys, WriteSync sync) {
        this.client = client;
        this.keys = keys;
        this.sync = sync;
        this.script = client.getScript(ByteArrayCodec.INSTANCE);
        this.ready = client.getStream(keys.ready(), STREAM_CODEC);
        this.unreplicatedAcks = new OutageLog(LOG, "Replication of acknowledgements on queue " + keys.queue());
        this.schedules = new GroupCommit<>(this::scheduleAllAsync, GROUP_COMMIT_MAX, request -> request.envelope().length,
                GROUP_COMMIT_MAX_BYTES);
    }

    public QueueKeys keys() {
        return keys;
    }

    public String name() {
        return keys.queue();
    }

    /**
     * Stores a message; see {@code schedule.lua}. Concurrent calls share script calls ({@link GroupCommit}).
     *
     * @throws DuplicateMessageException when {@code onDuplicate} is {@code fail} and the id exists
     */
    public ScheduleResult schedule(String id, byte[] envelope, DueTime due, String onDuplicate) {
        try {
            return schedules.submit(new ScheduleRequest(id, envelope, due, onDuplicate)).orThrow(name(), id);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisException("Interrupted while scheduling message " + id + " on queue " + name()
                                     + "; it is stored if its script call had already been sent", e);
        }
    }

    /**
     * Stores messages in one script call; see {@code schedule.lua}. Each has its own outcome: a duplicate or an
     * overflowing due time is returned as such, not thrown, and does not keep the others from being stored.
     *
     * @return the outcomes, in request order
     */
    public List<ScheduleResult> scheduleAll(List<ScheduleRequest> requests) {
        return await(scheduleAllAsync(requests));
    }

    private CompletionStage<List<ScheduleResult>> scheduleAllAsync(List<ScheduleRequest> requests) {
        List<Object> args = new ArrayList<>(1 + requests.size() * 5);
        args.add(bytes(keys.wake()));
        for (ScheduleRequest request : requests) {
            args.add(bytes(request.id()));
            args.add(request.envelope());
            args.add(mode(request.due()));
            args.add(bytes(request.due().millis()));
            args.add(bytes(request.onDuplicate()));
        }
        String operation = requests.size() == 1 ? "Schedule of message " + requests.get(0).id()
                : "Schedule of " + requests.size() + " messages";
        CompletionStage<List<Object>> reply = writeAsync(operation, Wait.REQUIRED, LuaScript.SCHEDULE,
                RScript.ReturnType.LIST, List.of(keys.due(), keys.msg(), keys.ready(), keys.fail()), args.toArray());
        return reply.thenApply(RedisQueue::scheduleResults);
    }

    private static List<ScheduleResult> scheduleResults(List<Object> reply) {
        long now = toLong(reply.get(0));
        List<ScheduleResult> results = new ArrayList<>(reply.size() / 2);
        for (int i = 1; i < reply.size(); i += 2) {
            results.add(new ScheduleResult(SCHEDULE_STATUSES[(int) toLong(reply.get(i))], toLong(reply.get(i + 1)), now));
        }
        return results;
    }

    /**
     * Removes a scheduled message; see {@code cancel.lua}.
     *
     * @return {@code true} when it was scheduled and is now gone; {@code false} when unknown, ready or in flight
     */
    public boolean cancel(String id) {
        Long removed = write("Cancel of message " + id, Wait.REQUIRED, LuaScript.CANCEL, RScript.ReturnType.LONG,
                List.of(keys.due(), keys.msg(), keys.fail()), bytes(id));
        return removed == 1;
    }

    /**
     * Gives a scheduled message a new due time; see {@code reschedule.lua}.
     *
     * @return the outcome; not scheduled when the message is unknown, ready or in flight
     * @throws IllegalArgumentException when the due time is beyond 2^53-1 ms
     */
    public ScheduleResult reschedule(String id, DueTime due) {
        List<Object> result = write("Reschedule of message " + id, Wait.REQUIRED, LuaScript.RESCHEDULE, RScript.ReturnType.LIST,
                List.of(keys.due(), keys.msg()), bytes(id), mode(due), bytes(due.millis()), bytes(keys.wake()));
        return new ScheduleResult(SCHEDULE_STATUSES[(int) toLong(result.get(0))], toLong(result.get(1)),
                toLong(result.get(2))).orThrow(name(), id);
    }

    private static byte[] mode(DueTime due) {
        return bytes(due.absolute() ? "at" : "delay");
    }

    /**
     * Moves at most {@code batchSize} due messages to the ready stream; see {@code transfer.lua}.
     */
    public CompletionStage<TransferResult> transfer(int batchSize) {
        RFuture<List<Object>> future = script.evalAsync(keys.ready(), RScript.Mode.READ_WRITE, LuaScript.TRANSFER.text(),
                RScript.ReturnType.LIST, List.of(keys.due(), keys.msg(), keys.ready(), keys.fail()), bytes(batchSize),
                bytes(keys.wake()));
        return future.thenApply(result -> new TransferResult(toLong(result.get(0)), toLong(result.get(1))));
    }

    /**
     * Creates the consumer group (and the stream) unless it exists. The group starts at the stream's first entry,
     * so messages made ready before any consumer existed are delivered too.
     */
    public void createGroup() {
        try {
            ready.createGroup(StreamCreateGroupArgs.name(QueueKeys.GROUP).id(StreamMessageId.ALL).makeStream());
        } catch (RedisException e) {
            if (errorReply(e, "BUSYGROUP ") == null) {
                throw e;
            }
        }
    }

    /**
     * Reads messages never delivered before, waiting up to {@code block} for the first one ({@code null}: no wait).
     */
    public List<Delivery> readNew(String consumer, int count, Duration block) {
        StreamReadGroupArgs args = StreamReadGroupArgs.neverDelivered().count(count);
        StreamReadGroupArgs read = block != null ? args.timeout(block) : args;
        return firstDeliveries(withGroup(() -> ready.readGroup(QueueKeys.GROUP, consumer, read)));
    }

    private static List<Delivery> firstDeliveries(Map<StreamMessageId, Map<String, byte[]>> entries) {
        List<Delivery> deliveries = new ArrayList<>(entries.size());
        entries.forEach((entryId, fields) -> deliveries.add(StreamEntries.toDelivery(entryId, fields, 1)));
        return deliveries;
    }

    /**
     * Runs a read of the consumer group, creating the group first if Redis says it does not exist (a fresh queue,
     * or a Redis that lost its data).
     */
    private <T> T withGroup(Supplier<T> read) {
        try {
            return read.get();
        } catch (RedisException e) {
            if (errorReply(e, "NOGROUP ") == null) {
                throw e;
            }
            createGroup();
            return read.get();
        }
    }

    /**
     * Acknowledges delivered messages; see {@code ack.lua}.
     *
     * @return how many were still pending and are now removed
     */
    public long ack(Collection<Delivery> deliveries) {
        List<Object> args = ackArguments(deliveries);
        return write("Acknowledgement", Wait.BEST_EFFORT, LuaScript.ACK, RScript.ReturnType.LONG,
                List.of(keys.ready(), keys.msg(), keys.fail()), args.toArray());
    }

    /**
     * Acknowledges finished messages ({@code ack.lua}) and reads up to {@code count} new ones without waiting, in one
     * round trip: the two commands go in one pipeline. The read stays outside the script because a script's reply
     * costs Redis about as much again as the read itself (converting every entry to Lua and back).
     */
    public List<Delivery> ackAndReadNew(String consumer, int count, Collection<Delivery> finished) {
        if (finished.isEmpty()) {
            return readNew(consumer, count, null);
        }
        List<Object> args = ackArguments(finished);
        StreamReadGroupArgs read = StreamReadGroupArgs.neverDelivered().count(count);
        Function<RBatch, RFuture<Map<StreamMessageId, Map<String, byte[]>>>> ackThenRead = batch -> {
            batch.getScript(ByteArrayCodec.INSTANCE).evalAsync(keys.ready(), RScript.Mode.READ_WRITE, LuaScript.ACK.text(),
                    RScript.ReturnType.LONG, List.of(keys.ready(), keys.msg(), keys.fail()), args.toArray());
            return batch.<String, byte[]>getStream(keys.ready(), STREAM_CODEC).readGroupAsync(QueueKeys.GROUP, consumer, read);
        };
        return firstDeliveries(withGroup(() -> await(inBatch("Acknowledgement", Wait.BEST_EFFORT, ackThenRead))));
    }

    /** Whether a write waits for replicas ({@link WriteSync}), and what a shortfall means. */
    private enum Wait {
        /** No waiting: nothing was changed that a failover could lose. */
        NONE,
        /** A shortfall fails the call: the caller was told the write is safe. */
        REQUIRED,
        /** A shortfall is logged (rate-limited): losing the write in a failover only means a duplicate delivery. */
        BEST_EFFORT
    }

    /**
     * {@link #writeAsync}, waiting for its outcome.
     *
     * @throws NotReplicatedException for {@link Wait#REQUIRED} when the write is applied but reached too few replicas
     */
    private <R> R write(String operation, Wait wait, LuaScript lua, RScript.ReturnType type, List<Object> scriptKeys,
                        Object... args) {
        return await(writeAsync(operation, wait, lua, type, scriptKeys, args));
    }

    /**
     * Runs a script that changes the queue, then waits for replicas as {@link WriteSync} says. The outcome fails with
     * {@link NotReplicatedException} for {@link Wait#REQUIRED} when the write is applied but reached too few replicas.
     */
    private <R> CompletionStage<R> writeAsync(String operation, Wait wait, LuaScript lua, RScript.ReturnType type,
                                              List<Object> scriptKeys, Object... args) {
        if (!sync.enabled() || wait == Wait.NONE) {
            return script.evalAsync(keys.ready(), RScript.Mode.READ_WRITE, lua.text(), type, scriptKeys, args);
        }
        return inBatch(operation, wait, batch -> batch.getScript(ByteArrayCodec.INSTANCE)
                .evalAsync(keys.ready(), RScript.Mode.READ_WRITE, lua.text(), type, scriptKeys, args));
    }

    /**
     * Sends the commands {@code commands} adds to a batch in one pipeline, followed by a wait for replicas as
     * {@link WriteSync} and {@code wait} say, and completes with the reply of the command it returns.
     */
    private <R> CompletionStage<R> inBatch(String operation, Wait wait, Function<RBatch, RFuture<R>> commands) {
        boolean waits = sync.enabled() && wait != Wait.NONE;
        RBatch batch = client.createBatch(waits ? sync.batchOptions() : BatchOptions.defaults());
        RFuture<R> result = commands.apply(batch);
        return batch.executeAsync().handle((done, failure) -> {
            if (failure != null) {
                throw batchFailure(failure);
            }
            if (waits && done.getSyncedSlaves() < sync.replicas()) {
                NotReplicatedException shortfall = new NotReplicatedException(name(), operation, sync.replicas(),
                        done.getSyncedSlaves(), sync.timeoutMs());
                if (wait == Wait.REQUIRED) {
                    throw shortfall;
                }
                unreplicatedAcks.failed(shortfall);
            } else if (waits && wait == Wait.BEST_EFFORT) {
                unreplicatedAcks.succeeded();
            }
            return result.toCompletableFuture().join();
        });
    }

    /** The failure of a batch, unwrapped; names the Redis version syncAof needs when WAITAOF is what failed. */
    private RuntimeException batchFailure(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        if (sync.aof() && cause instanceof RedisException && String.valueOf(cause.getMessage()).contains("WAITAOF")) {
            return new IllegalStateException("syncAof=true on queue " + name() + " needs Redis 7.2 or later (WAITAOF); "
                                             + "the server replied: " + cause.getMessage(), cause);
        }
        return cause instanceof RuntimeException runtime ? runtime : new CompletionException(cause);
    }

    /**
     * Waits for a reply as Redisson's synchronous calls do: its failure is thrown as it is, an interrupt as a
     * {@link RedisException} with the interrupt flag kept.
     */
    private static <R> R await(CompletionStage<R> reply) {
        try {
            return reply.toCompletableFuture().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisException("Interrupted while waiting for Redis", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            while (cause instanceof CompletionException && cause.getCause() != null) {
                cause = cause.getCause();
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new RedisException("Redis call failed", cause);
        }
    }

    /** The ARGV of {@code ack.lua}. */
    private static List<Object> ackArguments(Collection<Delivery> deliveries) {
        List<Object> args = new ArrayList<>(1 + deliveries.size() * 3);
        args.add(bytes(QueueKeys.GROUP));
        for (Delivery delivery : deliveries) {
            args.add(bytes(delivery.entryId()));
            args.add(bytes(delivery.messageId()));
            args.add(generation(delivery));
        }
        return args;
    }

    /** A delivery's generation as the scripts take it: see {@code record.lua}. */
    private static byte[] generation(Delivery delivery) {
        return bytes(delivery.generation() == Delivery.ANY_GENERATION ? "*" : delivery.generation());
    }

    /**
     * Puts a failed delivery back on schedule after {@code delayMs}; see {@code retry.lua}.
     *
     * @return {@code false} when the lease was lost and another consumer owns the message now, or a newer version of
     *         the message (a replace or a re-delay) was stored meanwhile and keeps its own schedule
     */
    public boolean retry(Delivery delivery, long delayMs, String lastError) {
        String note = new FailureNote(delivery.deliveryCount(), lastError).text();
        List<Object> result = script.eval(keys.ready(), RScript.Mode.READ_WRITE, LuaScript.RETRY.text(), RScript.ReturnType.LIST,
                List.of(keys.ready(), keys.due(), keys.fail(), keys.msg()), bytes(QueueKeys.GROUP), bytes(delivery.entryId()),
                bytes(delivery.messageId()), bytes(delayMs), bytes(note), bytes(keys.wake()), generation(delivery));
        return toLong(result.get(0)) == 1;
    }

    /**
     * Whether the stored message is still the version {@code delivery} delivered: not replaced or re-delayed since,
     * nor settled. A delivery whose record could not be read counts as current.
     */
    public boolean isCurrent(Delivery delivery) {
        if (delivery.generation() == Delivery.ANY_GENERATION) {
            return true;
        }
        byte[] record = client.<String, byte[]>getMap(keys.msg(), STREAM_CODEC).get(delivery.messageId());
        return record != null && StoredRecord.generation(record) == delivery.generation();
    }

    /**
     * Takes over at most {@code count} messages whose lease expired {@code minIdleMs} ago, and forgets consumers that
     * hold nothing and were not seen for ten visibility timeouts; see {@code reclaim.lua}. Forgetting a live but idle
     * consumer is harmless: its next read adds it to the group again.
     */
    public List<Delivery> reclaim(String consumer, long minIdleMs, int count) {
        List<Object> entries = withGroup(() -> script.eval(keys.ready(), RScript.Mode.READ_WRITE, LuaScript.RECLAIM.text(),
                RScript.ReturnType.LIST, List.of(keys.ready(), keys.msg()), bytes(QueueKeys.GROUP), bytes(consumer), bytes(minIdleMs),
                bytes(count), bytes(10 * minIdleMs)));
        return StreamEntries.fromScriptReply(entries);
    }

    /**
     * Removes a stopping consumer from the group unless it still holds messages; see {@code retire.lua}.
     */
    public void retire(String consumer) {
        script.eval(keys.ready(), RScript.Mode.READ_WRITE, LuaScript.RETIRE.text(), RScript.ReturnType.LONG,
                List.of(keys.ready()), bytes(QueueKeys.GROUP), bytes(consumer));
    }

    /**
     * Counts the queue's messages by state; see {@code stats.lua}.
     */
    public QueueCounts counts() {
        List<Object> result = script.eval(keys.ready(), RScript.Mode.READ_ONLY, LuaScript.STATS.text(), RScript.ReturnType.LIST,
                List.of(keys.due(), keys.ready(), keys.msg()), bytes(QueueKeys.GROUP));
        return new QueueCounts(toLong(result.get(0)), toLong(result.get(1)), toLong(result.get(2)), toLong(result.get(3)),
                toLong(result.get(4)));
    }

    /**
     * All messages of the queue, whatever their state.
     */
    public long size() {
        return client.getMap(keys.msg(), StringCodec.INSTANCE).size();
    }

    /**
     * Checks that Redis answers for this queue within {@code timeout}.
     *
     * @throws Exception the failure or time-out
     */
    public void ping(Duration timeout) throws Exception {
        try {
            redisTimeMillisAsync().toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
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
        try {
            return script.evalAsync(keys.ready(), RScript.Mode.READ_ONLY, LuaScript.TIME.text(), RScript.ReturnType.LONG,
                    List.of(keys.ready()));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * The {@code maxmemory-policy} of the node that holds this queue, read from {@code INFO}; see
     * {@code memory-policy.lua}.
     */
    public CompletionStage<String> memoryPolicyAsync() {
        try {
            return script.<byte[]>evalAsync(keys.ready(), RScript.Mode.READ_ONLY, LuaScript.MEMORY_POLICY.text(),
                    RScript.ReturnType.VALUE, List.of(keys.ready())).thenApply(policy -> new String(policy, StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Resets the idle time of messages this consumer still works on, so their lease does not expire.
     */
    public void extendLeases(String consumer, Collection<StreamMessageId> entryIds) {
        if (!entryIds.isEmpty()) {
            ready.fastClaim(QueueKeys.GROUP, consumer, 0, TimeUnit.MILLISECONDS, entryIds.toArray(new StreamMessageId[0]));
        }
    }

    /**
     * The error Redis replied, from its code on, or {@code null} when it has another code. Versions differ in what
     * they put before an error raised inside a script: nothing, {@code ERR }, or
     * {@code ERR Error running script (call to f_...): @user_script:80: }.
     */
    private static String errorReply(RedisException e, String code) {
        String message = String.valueOf(e.getMessage());
        if (message.startsWith(code)) {
            return message;
        }
        int at = message.indexOf(" " + code);
        return at >= 0 ? message.substring(at + 1) : null;
    }

    static byte[] bytes(Object value) {
        return String.valueOf(value).getBytes(StandardCharsets.UTF_8);
    }

    private static long toLong(Object value) {
        if (value instanceof Number number) {
            return number.longValue();
        }
        if (value instanceof byte[] data) {
            return Long.parseLong(new String(data, StandardCharsets.US_ASCII));
        }
        throw new IllegalStateException("Unexpected reply from Redis: " + value);
    }
}
