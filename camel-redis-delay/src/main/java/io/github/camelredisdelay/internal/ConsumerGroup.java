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
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

import io.github.camelredisdelay.internal.ScriptCalls.Durability;
import org.redisson.api.RScript;
import org.redisson.api.RStream;
import org.redisson.api.stream.PendingEntry;
import org.redisson.api.stream.StreamCreateGroupArgs;
import org.redisson.api.stream.StreamMessageId;
import org.redisson.api.stream.StreamReadGroupArgs;
import org.redisson.client.RedisException;
import org.redisson.client.codec.ByteArrayCodec;
import org.redisson.client.codec.StringCodec;
import org.redisson.codec.CompositeCodec;

import static io.github.camelredisdelay.internal.Replies.bytes;
import static io.github.camelredisdelay.internal.Replies.toLong;

/**
 * The consumer side of one queue (shard): reading the ready stream through the consumer group, and settling what was
 * read (acknowledge, retry, take over expired leases, extend leases, leave the group).
 */
public final class ConsumerGroup {

    /** Stream field names and hash fields (message ids) are text, their values may be binary (the record). */
    static final CompositeCodec TEXT_KEYS_BINARY_VALUES
            = new CompositeCodec(StringCodec.INSTANCE, ByteArrayCodec.INSTANCE, ByteArrayCodec.INSTANCE);

    /**
     * The version a delivery whose entry could not be read carries when its record's head is missing too: it matches a
     * stored value that is no record either ({@code isVersion} in {@code record.lua}).
     */
    private static final String NO_RECORD_VERSION = "*";

    /** What a lease check takes for a delivery whose entry could not be read: current whatever is stored. */
    private static final String ANY_VERSION = "any";

    private final QueueKeys keys;
    private final ScriptCalls scripts;
    private final ConnectedClient client;

    ConsumerGroup(ConnectedClient client, QueueKeys keys, ScriptCalls scripts) {
        this.client = client;
        this.keys = keys;
        this.scripts = scripts;
    }

    private RStream<String, byte[]> ready() {
        return client.get().getStream(keys.ready(), TEXT_KEYS_BINARY_VALUES);
    }

    /**
     * Creates the consumer group (and the stream) unless it exists. The group starts at the stream's first entry, so
     * messages made ready before any consumer existed are delivered too.
     */
    public void create() {
        try {
            ready().createGroup(StreamCreateGroupArgs.name(QueueKeys.GROUP).id(StreamMessageId.ALL).makeStream());
        } catch (RedisException e) {
            if (Replies.errorReply(e, "BUSYGROUP ") == null) {
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
        return firstDeliveries(withGroup(() -> ready().readGroup(QueueKeys.GROUP, consumer, read)));
    }

    /**
     * Acknowledges finished messages ({@code ack.lua}) and reads up to {@code count} new ones without waiting, in one
     * round trip: the two commands go in one pipeline. The read stays outside the script because a script's reply costs
     * Redis about as much again as the read itself (converting every entry to Lua and back). Redis runs the read even
     * when it refuses the script (while a cluster slot moves, say): what it read is returned beside the refusal, since
     * it is this consumer's now and would otherwise wait out its lease.
     *
     * @throws RuntimeException when the read failed, or the pipeline failed otherwise (see
     *                          {@link ScriptCalls#callBeside})
     */
    public AckAndRead ackAndReadNew(String consumer, int count, Collection<Delivery> finished) {
        if (finished.isEmpty()) {
            return new AckAndRead(readNew(consumer, count, null), null);
        }
        StreamReadGroupArgs read = StreamReadGroupArgs.neverDelivered().count(count);
        // an acknowledgement lost in a failover only means the message is delivered again
        ScriptCalls.Beside<Map<StreamMessageId, Map<String, byte[]>>> done = withGroup(
                () -> Futures.await(scripts.callBeside("Acknowledgement", LuaScript.ACK, Durability.BEST_EFFORT,
                        RScript.ReturnType.LONG, ackArguments(finished),
                        batch -> batch.<String, byte[]>getStream(keys.ready(), TEXT_KEYS_BINARY_VALUES)
                                .readGroupAsync(QueueKeys.GROUP, consumer, read))));
        return new AckAndRead(firstDeliveries(done.reply()), done.scriptFailure());
    }

    /**
     * What {@link #ackAndReadNew} read, and why the acknowledgement failed if it did (the finished messages are then
     * still pending).
     */
    public record AckAndRead(List<Delivery> read, RuntimeException ackFailure) {
    }

    /**
     * Acknowledges delivered messages; see {@code ack.lua}.
     *
     * @return how many were still pending and are now removed
     */
    public long ack(Collection<Delivery> deliveries) {
        return Futures.await(ackAsync(deliveries));
    }

    /** {@link #ack}, without waiting: the stage completes with how many were removed when Redis replied. */
    public CompletionStage<Long> ackAsync(Collection<Delivery> deliveries) {
        // an acknowledgement lost in a failover only means the message is delivered again
        return scripts.call("Acknowledgement", LuaScript.ACK, Durability.BEST_EFFORT, RScript.ReturnType.LONG,
                ackArguments(deliveries));
    }

    private static Object[] ackArguments(Collection<Delivery> deliveries) {
        List<Object> args = new ArrayList<>(deliveries.size() * 3);
        for (Delivery delivery : deliveries) {
            args.add(bytes(delivery.entryId()));
            args.add(bytes(delivery.messageId()));
            args.add(version(delivery));
        }
        return args.toArray();
    }

    /**
     * The version of its message id a delivery carries, as the scripts take it: see {@code record.lua}. An entry that
     * could not be read carries the version its record's head names, and {@link #NO_RECORD_VERSION} when even that is
     * missing: then a stored value of the id that is no record either is its own, and a record is a replacement stored
     * meanwhile.
     */
    private static byte[] version(Delivery delivery) {
        if (delivery.generation() != Delivery.ANY_GENERATION) {
            return StoredRecord.version(delivery.scheduledAt(), delivery.generation());
        }
        return delivery.envelope().length >= Wire.RECORD_HEAD_BYTES
                ? StoredRecord.version(delivery.envelope())
                : bytes(NO_RECORD_VERSION);
    }

    /**
     * Puts a failed delivery of {@code consumer} back on schedule after {@code delayMs}; see {@code retry.lua}.
     *
     * @return empty when put back on schedule, else why nothing was done
     */
    public Optional<Refusal> retry(String consumer, Delivery delivery, long delayMs, String lastError) {
        String note = new FailureNote(delivery.deliveryCount(), lastError).text();
        // a retry lost in a failover leaves the entry pending: it is delivered again after the visibility timeout
        Long status = scripts.callAndWait("Retry of message " + LogText.of(delivery.messageId()), LuaScript.RETRY,
                Durability.NONE,
                RScript.ReturnType.LONG, bytes(delivery.entryId()), bytes(delivery.messageId()), bytes(delayMs),
                bytes(note), version(delivery), bytes(consumer));
        return switch (status.intValue()) {
            case Wire.RETRY_SCHEDULED -> Optional.empty();
            case Wire.RETRY_NOT_PENDING -> Optional.of(Refusal.LEASE_LOST);
            case Wire.RETRY_GONE -> Optional.of(Refusal.GONE);
            case Wire.RETRY_SUPERSEDED -> Optional.of(Refusal.SUPERSEDED);
            case Wire.RETRY_PURGED -> Optional.of(Refusal.PURGED);
            default -> throw new IllegalStateException("retry.lua answered an unknown status " + status);
        };
    }

    /**
     * Takes over at most {@code count} messages whose lease expired {@code minIdleMs} ago, looking at the pending list
     * from {@code cursor} ({@link Reclaimed#FROM_START} at first, then the cursor the previous call returned) at most
     * ten times {@code count} entries far, and forgets consumers that hold nothing and were not seen for ten visibility
     * timeouts; see {@code reclaim.lua}. Forgetting a live but idle consumer is harmless: its next read adds it to the
     * group again.
     */
    public Reclaimed reclaim(String consumer, long minIdleMs, int count, String cursor) {
        List<Object> reply = withGroup(() -> scripts.callAndWait("Take-over of expired leases", LuaScript.RECLAIM,
                Durability.NONE, RScript.ReturnType.LIST, bytes(consumer), bytes(minIdleMs), bytes(cursor), bytes(count),
                bytes(10 * minIdleMs)));
        @SuppressWarnings("unchecked")
        List<Object> entries = (List<Object>) reply.get(1);
        return new Reclaimed(
                StreamEntries.fromScriptReply(entries),
                new String((byte[]) reply.get(0), StandardCharsets.US_ASCII), ((Number) reply.get(2)).intValue(),
                ((Number) reply.get(3)).intValue() == 1);
    }

    /**
     * Takes back the delivery that {@link #reclaim} counted for each of these messages, taken over by {@code consumer}
     * while its own exchanges still run them (their leases expired unextended): no delivery happened; see
     * {@code own-take-over.lua}.
     */
    public void uncountOwnTakeOvers(String consumer, Collection<Delivery> takenOver) {
        List<Object> args = new ArrayList<>(2 * takenOver.size() + 1);
        args.add(bytes(consumer));
        for (Delivery delivery : takenOver) {
            args.add(bytes(delivery.entryId()));
            // including the take-over
            args.add(bytes(delivery.timesDelivered()));
        }
        scripts.callAndWait("Take-back of own leases' take-over", LuaScript.OWN_TAKE_OVER, Durability.NONE,
                RScript.ReturnType.LONG, args.toArray());
    }

    /**
     * Hands back deliveries a stopping consumer read but never routed: their lease expires now and their delivery is
     * not counted; see {@code hand-back.lua}.
     */
    public void handBack(String consumer, Collection<Delivery> deliveries) {
        handBackEntries(consumer, deliveries.stream().map(Delivery::entryId).toList());
    }

    /** Hands back entries a consumer read but never routed, as {@link #handBack} does. */
    public void handBackEntries(String consumer, Collection<StreamMessageId> entryIds) {
        List<Object> args = new ArrayList<>(entryIds.size() + 1);
        args.add(bytes(consumer));
        entryIds.forEach(entryId -> args.add(bytes(entryId)));
        scripts.callAndWait("Hand-back of unrouted messages", LuaScript.HAND_BACK, Durability.NONE, RScript.ReturnType.LONG,
                args.toArray());
    }

    /** At most {@code count} entries pending under {@code consumer}, oldest first. */
    public List<PendingEntry> pendingOf(String consumer, int count) {
        return withGroup(() -> ready().listPending(QueueKeys.GROUP, consumer, StreamMessageId.MIN, StreamMessageId.MAX,
                count));
    }

    /**
     * Removes a stopping consumer from the group unless it still holds messages; see {@code retire.lua}. The stage
     * completes when Redis replied.
     */
    public CompletionStage<?> retire(String consumer) {
        return scripts.call("Retirement of consumer " + consumer, LuaScript.RETIRE, Durability.NONE,
                RScript.ReturnType.LONG, bytes(consumer));
    }

    /**
     * Resets the idle time of messages this consumer still works on, so their lease does not expire, leaving those
     * another consumer took over meanwhile to it; see {@code extend.lua}. The stage completes when Redis replied.
     */
    public CompletionStage<?> extendLeases(String consumer, Collection<StreamMessageId> entryIds) {
        if (entryIds.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        List<Object> args = new ArrayList<>(entryIds.size() + 1);
        args.add(bytes(consumer));
        entryIds.forEach(entryId -> args.add(bytes(entryId)));
        return scripts.call("Lease extension", LuaScript.EXTEND, Durability.NONE, RScript.ReturnType.LONG, args.toArray());
    }

    /**
     * Whether {@code consumer} still holds the lease of {@code delivery} (the entry is pending to it, not taken over
     * nor settled), and whether the stored message is still the version it delivered (not replaced or re-delayed since;
     * a delivery whose entry could not be read counts as current, so that it is dead-lettered whatever is stored under
     * its id: its acknowledgement then leaves a replacement alone), and whether a purge under way removes it; read on
     * the master, see {@code lease-check.lua}.
     */
    public LeaseCheck checkLease(String consumer, Delivery delivery) {
        List<Object> reply = scripts.callAndWait("Lease check of message " + delivery.messageId(), LuaScript.LEASE_CHECK,
                Durability.NONE, RScript.ReturnType.LIST, bytes(delivery.entryId()), bytes(delivery.messageId()),
                bytes(consumer),
                delivery.generation() == Delivery.ANY_GENERATION ? bytes(ANY_VERSION) : version(delivery));
        return new LeaseCheck(
                toLong(reply.get(0)) == 1, toLong(reply.get(1)) == 1, toLong(reply.get(2)) == 1,
                toLong(reply.get(3)) == 1);
    }

    /**
     * What {@link #checkLease} found.
     *
     * @param holds   the consumer still holds the delivery's lease
     * @param current the stored message is still the version the delivery carries
     * @param purged  a purge under way started after the stored message was scheduled: it is removed, not settled
     * @param gone    the consumer does not hold the lease, and Redis lost the delivery: it holds neither its stream
     *                entry nor the message, and the consumer group never delivered that entry ({@link Refusal#GONE})
     */
    public record LeaseCheck(boolean holds, boolean current, boolean purged, boolean gone) {
    }

    private static List<Delivery> firstDeliveries(Map<StreamMessageId, Map<String, byte[]>> entries) {
        List<Delivery> deliveries = new ArrayList<>(entries.size());
        entries.forEach((entryId, fields) -> deliveries.add(StreamEntries.toDelivery(entryId, fields, 1)));
        return deliveries;
    }

    /**
     * Runs a read of the consumer group, creating the group first if Redis says it does not exist (a fresh queue, or a
     * Redis that lost its data).
     */
    private <T> T withGroup(Supplier<T> read) {
        try {
            return read.get();
        } catch (RedisException e) {
            if (Replies.errorReply(e, "NOGROUP ") == null) {
                throw e;
            }
            create();
            return read.get();
        }
    }
}
