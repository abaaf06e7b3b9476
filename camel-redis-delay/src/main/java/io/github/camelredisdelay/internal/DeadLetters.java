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
import java.util.List;
import java.util.Map;

import io.github.camelredisdelay.OnDuplicate;
import io.github.camelredisdelay.RedisDelayConstants;

/**
 * Moves exhausted or unreadable messages to the dead-letter queue, an ordinary queue with its own hash tag (so possibly
 * on another cluster node). It writes to the dead-letter queue first and removes the original second, so a failure in
 * between (a crash, a copy that reached too few replicas) loses nothing: the delivery is dead-lettered again. The copy
 * names the delivery it was made from ({@link #COPY_OF}), so a move repeated for the same delivery finds its own
 * earlier copy and stores no second one. The message keeps its id; when the dead-letter queue already holds another
 * message with that id (the same id dead-lettered before), it is stored as {@code <id>#<stream entry>} instead (or
 * {@code <id>#<stream entry>.<n>} when that is taken too: queues sharing the dead-letter queue dead-lettered the id
 * from entries of the same id in their own streams), so no dead letter ever replaces another, and a redrive takes it
 * back under its id ({@link #originalId}). A delivery whose message was replaced or re-delayed meanwhile (a newer
 * version is stored) is not dead-lettered: it is only acknowledged, and the newer version keeps its own schedule. Nor
 * is one whose lease another consumer took over (this one was too slow to extend it): the message is left to that
 * consumer. Nor is a message a purge under way started after: it is removed, as a retry would remove it.
 */
public final class DeadLetters {

    /**
     * The envelope header naming the delivery a dead letter was copied from: the source shard's stream, the stream
     * entry and the message's version. The component's own; never given to a route, and removed by a redrive.
     */
    public static final String COPY_OF = "CamelRedisDelayDeadLetterOf";

    /**
     * Prefixes the headers {@link #move} added when it dead-lettered the message before (from a queue into the
     * dead-letter queue it now leaves), so that a redrive back there restores them. The component's own; never given to
     * a route.
     */
    static final String EARLIER = "CamelRedisDelayEarlier";

    /** The headers {@link #move} adds, besides those it keeps of an earlier move under {@link #EARLIER}. */
    private static final List<String> ADDED
            = List.of(RedisDelayConstants.ORIGINAL_QUEUE, RedisDelayConstants.LAST_ERROR, COPY_OF);

    private final QueueShard source;
    private final ShardedQueue target;

    /**
     * @param source the shard the messages come from
     * @param target the dead-letter queue; a message goes to the shard its id picks there
     */
    public DeadLetters(QueueShard source, ShardedQueue target) {
        this.source = source;
        this.target = target;
    }

    public String targetName() {
        return target.name();
    }

    /**
     * @param  consumer the consumer that was delivered the message
     * @param  reason   the last error, stored as header {@link RedisDelayConstants#LAST_ERROR}
     * @return          the id the message has in the dead-letter queue, or why it was not moved
     */
    public Moved move(String consumer, Delivery delivery, String reason) {
        ConsumerGroup.LeaseCheck lease = source.group().checkLease(consumer, delivery);
        if (!lease.holds()) {
            return Moved.refused(lease.gone() ? Refusal.GONE : Refusal.LEASE_LOST);
        }
        if (!lease.current()) {
            source.group().ack(List.of(delivery));
            return Moved.refused(Refusal.SUPERSEDED);
        }
        if (lease.purged()) {
            source.group().ack(List.of(delivery));
            return Moved.refused(Refusal.PURGED);
        }
        Envelope original;
        try {
            original = EnvelopeCodec.decode(delivery.envelope());
        } catch (CorruptEnvelopeException e) {
            // keep the undecodable bytes as the body, for whoever inspects the dead letter
            original = new Envelope(delivery.envelope(), Map.of());
        }
        Map<String, Object> headers = keepingEarlierMove(original.headers());
        headers.put(RedisDelayConstants.ORIGINAL_QUEUE, source.name());
        headers.put(RedisDelayConstants.LAST_ERROR, reason);
        String copyOf = source.keys().ready() + " " + delivery.entryId() + " " + delivery.scheduledAt() + " "
                        + delivery.generation();
        headers.put(COPY_OF, copyOf);
        byte[] envelope = EnvelopeCodec.encode(new Envelope(original.body(), headers));
        String id = store(delivery.messageId(), delivery.entryId().toString(), envelope, copyOf);
        source.group().ack(List.of(delivery));
        return new Moved(id, null);
    }

    /**
     * Stores a dead letter under the first id free for it, or already holding its copy (a move repeated for the same
     * delivery): the message's id, else {@code <id>#<stream entry>}, else {@code <id>#<stream entry>.<n>} from 2 on.
     * Stream entry ids are unique within one stream only: queues sharing the dead-letter queue that dead-letter one id
     * from entries of the same id (the id scheduled onto each at once) would otherwise all claim one id, and all but
     * the first be acknowledged away unstored.
     *
     * @return                       the id it is stored under
     * @throws IllegalStateException when each of those ids holds another dead letter: nothing is acknowledged
     */
    private String store(String messageId, String entryId, byte[] envelope, String copyOf) {
        if (storedUnder(messageId, envelope, copyOf)) {
            return messageId;
        }
        for (int n = 1; n <= MessageIds.MAX_DEAD_LETTER_COPY; n++) {
            String id = MessageIds.deadLetterId(messageId, entryId, n);
            if (storedUnder(id, envelope, copyOf)) {
                return id;
            }
        }
        throw new IllegalStateException(
                LogText.of(
                        "Dead-letter queue " + target.name() + " holds other dead letters under every id message " + messageId
                           + " of queue " + source.name() + " may take there (" + messageId + ", "
                           + MessageIds.deadLetterId(messageId, entryId, 1) + " and "
                           + MessageIds.deadLetterId(messageId, entryId, 2) + " to "
                           + MessageIds.deadLetterId(messageId, entryId,
                                   MessageIds.MAX_DEAD_LETTER_COPY)
                           + "); the message stays in queue " + source.name()));
    }

    /** Whether the dead letter is stored under {@code id}: now, or by an earlier move of the same delivery. */
    private boolean storedUnder(String id, byte[] envelope, String copyOf) {
        QueueShard shard = target.forMessage(id);
        return shard.schedule(id, envelope, DueTime.after(0), OnDuplicate.keep).scheduled() || isCopy(shard, id, copyOf);
    }

    /**
     * A message's headers with those an earlier {@link #move} added (it is a dead letter leaving its dead-letter queue)
     * kept under {@link #EARLIER}, as are those that move kept of one before it.
     */
    private static Map<String, Object> keepingEarlierMove(Map<String, Object> messageHeaders) {
        Map<String, Object> headers = new LinkedHashMap<>();
        messageHeaders.forEach((name, value) -> headers.put(isAdded(name) ? EARLIER + name : name, value));
        return headers;
    }

    /**
     * A dead letter's headers without those {@link #move} added: the message's own, as a redrive stores it again, with
     * those of an earlier move back (a dead letter of a dead-letter queue names again the queue it came from there).
     */
    static Map<String, Object> originalHeaders(Map<String, Object> deadLetterHeaders) {
        Map<String, Object> headers = new LinkedHashMap<>();
        deadLetterHeaders.forEach((name, value) -> {
            if (name.startsWith(EARLIER)) {
                headers.put(name.substring(EARLIER.length()), value);
            } else if (!ADDED.contains(name)) {
                headers.put(name, value);
            }
        });
        return headers;
    }

    private static boolean isAdded(String name) {
        return ADDED.contains(name) || name.startsWith(EARLIER);
    }

    /**
     * The id a dead letter's message has in its queue: {@code deadLetterId} without the {@code #<stream entry>} (or
     * {@code #<stream entry>.<n>}) that {@link #move} adds to a later dead letter of an id; the stream entry
     * {@link #COPY_OF} names tells that suffix apart from a {@code #} of the message's own id.
     */
    static String originalId(String deadLetterId, Map<String, Object> deadLetterHeaders) {
        if (deadLetterHeaders.get(COPY_OF) instanceof String copyOf) {
            // <source stream> <stream entry> <scheduled at> <generation>, from the end: a stream's name may hold spaces
            String[] delivery = copyOf.split(" ");
            if (delivery.length >= 4) {
                return MessageIds.withoutDeadLetterSuffix(deadLetterId, delivery[delivery.length - 3]);
            }
        }
        return deadLetterId;
    }

    /**
     * Whether a dead letter's headers say it came from {@code queue}: their {@link RedisDelayConstants#ORIGINAL_QUEUE}
     * names it, or none (a message scheduled onto the dead-letter queue directly). Of a dead-letter queue that several
     * queues share, each queue's redrive and peek take only its own.
     */
    static boolean cameFrom(Map<String, Object> deadLetterHeaders, String queue) {
        Object original = deadLetterHeaders.get(RedisDelayConstants.ORIGINAL_QUEUE);
        return original == null || queue.equals(original);
    }

    /** {@link #cameFrom} of a stored dead letter's envelope; one that cannot be read may have come from any queue. */
    static boolean cameFrom(byte[] envelope, String queue) {
        try {
            return cameFrom(EnvelopeCodec.decode(envelope).headers(), queue);
        } catch (IllegalArgumentException e) {
            return true;
        }
    }

    /**
     * Whether the dead letter held under {@code storedId} is one of message {@code messageId} of {@code queue}
     * ({@link #cameFrom}), or that dead letter itself, named by the id it is held under ({@code <id>#<stream entry>},
     * as a peek reports it and a redrive takes it); one that cannot be read is, under the message's id, as nothing says
     * whose it is.
     */
    static boolean isDeadLetterOf(String queue, String messageId, String storedId, byte[] envelope) {
        Envelope stored;
        try {
            stored = EnvelopeCodec.decode(envelope);
        } catch (IllegalArgumentException e) {
            return storedId.equals(messageId);
        }
        return cameFrom(stored.headers(), queue)
                && (storedId.equals(messageId) || originalId(storedId, stored.headers()).equals(messageId));
    }

    /** Whether the dead letter {@code id} of {@code shard} was copied from the delivery {@code copyOf} names. */
    private static boolean isCopy(QueueShard shard, String id, String copyOf) {
        try {
            InspectedMessage stored = shard.inspection().peekOnMaster(id);
            return stored != null && copyOf.equals(EnvelopeCodec.decode(stored.envelope()).headers().get(COPY_OF));
        } catch (IllegalArgumentException e) {
            // a dead letter that cannot be read (a corrupt envelope, a failure note that is not one) is another message's
            return false;
        }
    }

    /**
     * What {@link #move} did: one of the two is set.
     *
     * @param deadLetterId the id the message has in the dead-letter queue
     * @param refusal      why the message was not moved
     */
    public record Moved(String deadLetterId, Refusal refusal) {

        static Moved refused(Refusal refusal) {
            return new Moved(null, refusal);
        }
    }
}
