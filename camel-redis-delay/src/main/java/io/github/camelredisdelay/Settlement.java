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
package io.github.camelredisdelay;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.github.camelredisdelay.internal.DeadLetters;
import io.github.camelredisdelay.internal.Delivery;
import io.github.camelredisdelay.internal.EnvelopeCodec;
import io.github.camelredisdelay.internal.LeaseKeeper;
import io.github.camelredisdelay.internal.LogText;
import io.github.camelredisdelay.internal.QueueShard;
import io.github.camelredisdelay.internal.QueueStatistics;
import io.github.camelredisdelay.internal.Refusal;
import io.github.camelredisdelay.internal.RetryPolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * Decides and carries out the outcome of every delivery of one consumer on one shard: acknowledged when its exchange
 * succeeded; retried after the retry schedule's delay, or dead-lettered once its deliveries are exhausted, when it
 * failed; dead-lettered before reaching the route when it cannot be read or its leases kept expiring; left for a newer
 * node when its format is newer than this version reads. It is the one place that releases a delivery's lease. If Redis
 * cannot be reached or refuses the write at that moment, a failed delivery whose lease this consumer extends keeps it,
 * and its settlement is tried again with each lease extension, so that its error is not lost; any other stays leased
 * and is delivered again after the visibility timeout.
 */
final class Settlement {

    /** How many wrapped exceptions a last error names at most. */
    private static final int DESCRIBED_CAUSES = 4;
    /** How deep a last error looks for them, which also ends a chain of causes that loops. */
    private static final int SEARCHED_CAUSES = 16;
    /**
     * Most characters of a last error, which is stored with the message and logged with each failure: an exception's
     * message can be huge (a validator's list of every violation in a large document).
     */
    private static final int LAST_ERROR_CHARS = 4_000;

    private static final Logger LOG = LoggerFactory.getLogger(Settlement.class);
    private static final long NEWER_FORMAT_QUIET_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final QueueShard queue;
    private final String consumer;
    private final RetryPolicy retryPolicy;
    private final DeadLetters deadLetters;
    private final LeaseKeeper leases;
    private final AbandonedLeases abandonedLeases;
    private final AckBuffer acks;
    private final QueueStatistics statistics;
    private final AtomicLong lastNewerFormatWarningNanos = new AtomicLong();
    /** Failed deliveries whose settlement Redis refused, their leases kept until it is tried again. */
    private final Queue<UnsettledFailure> unsettledFailures = new ConcurrentLinkedQueue<>();

    /**
     * @param consumer the consumer whose deliveries this settles, by its name in the consumer group
     * @param acks     where succeeded deliveries wait to be acknowledged with the next read, or {@code null} to
     *                 acknowledge each at once
     */
    Settlement(QueueShard queue, String consumer, RetryPolicy retryPolicy, DeadLetters deadLetters, LeaseKeeper leases,
               AbandonedLeases abandonedLeases, AckBuffer acks, QueueStatistics statistics) {
        this.statistics = statistics;
        this.queue = queue;
        this.consumer = consumer;
        this.retryPolicy = retryPolicy;
        this.deadLetters = deadLetters;
        this.leases = leases;
        this.abandonedLeases = abandonedLeases;
        this.acks = acks;
    }

    /**
     * Whether a fetched delivery goes to the route. One that does not is settled here: dead-lettered when it cannot be
     * read or its earlier deliveries used up {@code maxDeliveries}, the last of them ending with an expired lease (its
     * consumers crashed or hung: a poison message must not take down one node after another), left alone when its
     * format is newer.
     */
    boolean admit(Delivery delivery) {
        if (delivery.problem() != null) {
            rejected(delivery, delivery.problem());
            return false;
        }
        if (EnvelopeCodec.isNewerFormat(delivery.envelope())) {
            leaveForNewerNode(delivery);
            return false;
        }
        int earlierDeliveries = delivery.deliveryCount() - 1;
        if (retryPolicy.isExhausted(earlierDeliveries)) {
            rejected(delivery, exhaustionBefore(delivery, earlierDeliveries));
            return false;
        }
        return true;
    }

    /**
     * Why a delivery whose earlier deliveries used up {@code maxDeliveries} goes to the dead-letter queue before the
     * route: the last of them ended with an expired lease (those that failed were retried), or it failed and a consumer
     * allowing more deliveries retried it, with a WARN (the last error, as any exhausted message's).
     */
    private String exhaustionBefore(Delivery delivery, int earlierDeliveries) {
        if (delivery.lastError() == null) {
            return "delivered " + earlierDeliveries + " times without being acknowledged within the visibility timeout "
                   + "(the consumers crashed, hung or were too slow)";
        }
        if (delivery.expiredLeases() == 0) {
            LOG.warn("Message {} on queue {} failed {} deliveries, as many as this consumer's maxDeliveries allows or "
                     + "more, and another consumer retried it: the consumers of the queue have different maxDeliveries "
                     + "(use one value on every node). It goes to the dead-letter queue without a delivery here",
                    LogText.of(delivery.messageId()), queue.name(), earlierDeliveries);
            return delivery.lastError();
        }
        return "delivered " + earlierDeliveries + " times, the last one not acknowledged within the visibility timeout "
               + "(its consumer crashed, hung or was too slow); the last failure before it: " + delivery.lastError();
    }

    /** Sends a delivery that cannot go to the route to the dead-letter queue. */
    void rejected(Delivery delivery, String problem) {
        try {
            // the fetch that brought it here is no delivery
            deadLetter(delivery, delivery.deliveryCount() - 1, problem);
        } catch (RuntimeException e) {
            LOG.warn("Could not dead-letter message {} of queue {}; trying again after the visibility timeout: {}",
                    LogText.of(delivery.messageId()), queue.name(), e.toString());
        } finally {
            leases.finished(delivery);
        }
    }

    /**
     * The delivery's exchange succeeded: acknowledged with the consumer's next read, or now (no buffer, or the consumer
     * stopped reading: an exchange handed to another route may end after that).
     */
    void succeeded(Delivery delivery) {
        if (acks != null && acks.add(delivery)) {
            return;
        }
        try {
            queue.group().ack(List.of(delivery));
        } catch (RuntimeException e) {
            LOG.warn(
                    "Could not acknowledge message {} on queue {}; it will be delivered again after the visibility timeout: {}",
                    LogText.of(delivery.messageId()), queue.name(), e.toString());
        } finally {
            leases.finished(delivery);
        }
    }

    /** Acknowledgements sent with a read: their leases need no extending any more. */
    void acknowledged(List<Delivery> deliveries) {
        deliveries.forEach(leases::finished);
    }

    /** The delivery's exchange failed: another delivery after the retry schedule's delay, or the dead-letter queue. */
    void failed(Delivery delivery, Throwable error) {
        UnsettledFailure failure = new UnsettledFailure(delivery, describe(error));
        RuntimeException refused = settle(failure);
        if (refused == null) {
            return;
        }
        if (leases.keeps(delivery.entryId())) {
            unsettledFailures.add(failure);
            LOG.warn("Could not settle failed message {} on queue {}; trying again with each lease extension, its lease "
                     + "kept until then: {}",
                    LogText.of(delivery.messageId()), queue.name(), refused.toString());
        } else {
            LOG.warn("Could not settle failed message {} on queue {}; it will be delivered again after the visibility "
                     + "timeout: {}",
                    LogText.of(delivery.messageId()), queue.name(), refused.toString());
        }
    }

    /** Whether failed deliveries wait for their settlement to be tried again ({@link #settleFailuresAgain}). */
    boolean hasUnsettledFailures() {
        return !unsettledFailures.isEmpty();
    }

    /**
     * Tries again to settle the failed deliveries whose settlement Redis refused, oldest first, until one is refused
     * again (Redis still cannot take it): that one and the rest wait for the next try, their leases kept.
     */
    void settleFailuresAgain() {
        for (int left = unsettledFailures.size(); left > 0; left--) {
            UnsettledFailure failure = unsettledFailures.poll();
            if (failure == null) {
                return;
            }
            RuntimeException refused = settle(failure);
            if (refused != null) {
                unsettledFailures.add(failure);
                LOG.debug("Could not settle failed message {} on queue {} again: {}",
                        LogText.of(failure.delivery().messageId()),
                        queue.name(), refused.toString());
                return;
            }
        }
    }

    /**
     * Retries or dead-letters a failed delivery and releases its lease; when Redis refuses, returns why, the lease
     * kept.
     */
    private RuntimeException settle(UnsettledFailure failure) {
        Delivery delivery = failure.delivery();
        try {
            OptionalLong delay = retryPolicy.delayAfter(delivery.deliveryCount());
            if (delay.isEmpty()) {
                deadLetter(delivery, delivery.deliveryCount(), failure.lastError());
            } else {
                retry(delivery, delay.getAsLong(), failure.lastError());
            }
        } catch (RuntimeException e) {
            return e;
        }
        leases.finished(delivery);
        return null;
    }

    /** A taken delivery goes to a route ({@code pollEnrich}'s): its lease is kept alive until it is settled. */
    void keepLease(Delivery delivery) {
        leases.started(delivery);
    }

    /**
     * The delivery is not settled (its exchange never completed, or a stop cut it off): its lease is left to expire,
     * and it is delivered again, this delivery counted.
     */
    void abandoned(Delivery delivery) {
        abandonedLeases.add(delivery);
        leases.finished(delivery);
    }

    /**
     * The delivery was never routed and is handed back ({@link Deliverer#handBack}): its lease is no longer extended,
     * and it is not left to expire counted, as an abandoned one is.
     */
    void handedBack(Delivery delivery) {
        leases.finished(delivery);
    }

    /**
     * The delivery's exchange was handed to a copy (a {@code seda:} route's, say) that was dropped before it completed
     * (a full queue that discards, say): its lease is left to expire, and it is delivered again.
     */
    void dropped(Delivery delivery) {
        LOG.warn("Message {} on queue {} was handed to a copy of its exchange that was dropped before it completed (a full "
                 + "seda: queue that discards, say); it will be delivered again after the visibility timeout",
                LogText.of(delivery.messageId()), queue.name());
        abandoned(delivery);
    }

    private void retry(Delivery delivery, long delay, String reason) {
        Optional<Refusal> refusal = queue.group().retry(consumer, delivery, delay, reason);
        if (refusal.isPresent()) {
            LOG.atLevel(levelOf(refusal.get())).log(
                    "Delivery {} of message {} on queue {} failed and is not put back on schedule: {}; it failed on: {}",
                    delivery.deliveryCount(), LogText.of(delivery.messageId()), queue.name(), refusal.get().reason(),
                    LogText.of(reason));
            return;
        }
        statistics.events().retried();
        LOG.warn("Delivery {} of message {} on queue {} failed, next delivery in {} ms: {}", delivery.deliveryCount(),
                LogText.of(delivery.messageId()), queue.name(), delay, LogText.of(reason));
    }

    /** How a failed delivery that was not settled is logged: one whose message may be lost is worth a warning. */
    private static Level levelOf(Refusal refusal) {
        return refusal == Refusal.GONE ? Level.WARN : Level.INFO;
    }

    /** Moves a message to the dead-letter queue after {@code deliveries} deliveries to a route. */
    private void deadLetter(Delivery delivery, int deliveries, String reason) {
        DeadLetters.Moved moved = deadLetters.move(consumer, delivery, reason);
        if (moved.refusal() != null) {
            LOG.atLevel(levelOf(moved.refusal())).log("Message {} on queue {} failed ({}) and is not dead-lettered: {}",
                    LogText.of(delivery.messageId()), queue.name(), LogText.of(reason), moved.refusal().reason());
            return;
        }
        statistics.events().deadLettered();
        LOG.error("Message {} on queue {} moved to dead-letter queue {} as {} after {} deliveries: {}",
                LogText.of(delivery.messageId()),
                queue.name(), deadLetters.targetName(), LogText.of(moved.deadLetterId()), deliveries, LogText.of(reason));
    }

    /**
     * Leaves a message written in a newer format (during a rolling upgrade) unacknowledged and stops extending its
     * lease: after the visibility timeout a consumer takes it over, until one on a node that reads it delivers it. Its
     * growing delivery count never dead-letters it.
     */
    private void leaveForNewerNode(Delivery delivery) {
        leases.finished(delivery);
        long now = System.nanoTime();
        long last = lastNewerFormatWarningNanos.get();
        if ((last == 0 || now - last > NEWER_FORMAT_QUIET_NANOS) && lastNewerFormatWarningNanos.compareAndSet(last, now)) {
            LOG.warn("Message {} on queue {} is stored in format version {}, newer than this node reads ({}); it is left "
                     + "for a node that reads it (upgrade this one). Warned once a minute per consumer.",
                    LogText.of(delivery.messageId()), queue.name(), Byte.toUnsignedInt(delivery.envelope()[0]),
                    EnvelopeCodec.VERSION);
        }
    }

    /** A failed delivery to settle, with its route's error. */
    private record UnsettledFailure(Delivery delivery, String lastError) {
    }

    /**
     * The route's error as the last error names it: its class and message, then each exception it wraps whose message
     * it does not already hold (a {@code CamelExecutionException} names only the exchange), up to
     * {@value #DESCRIBED_CAUSES} of them; cut after {@value #LAST_ERROR_CHARS} characters.
     */
    private static String describe(Throwable error) {
        if (error == null) {
            return "exchange failed without an exception";
        }
        StringBuilder text = new StringBuilder(error.getClass().getName()).append(": ").append(messageOf(error));
        Throwable cause = error.getCause();
        int described = 0;
        for (int depth = 0; cause != null && cause != error && depth < SEARCHED_CAUSES
                && described < DESCRIBED_CAUSES; depth++, cause = cause.getCause()) {
            String message = messageOf(cause);
            if (text.indexOf(message) < 0) {
                text.append("; caused by ").append(cause.getClass().getName()).append(": ").append(message);
                described++;
            }
        }
        return cut(text);
    }

    /** The text, or its first {@value #LAST_ERROR_CHARS} characters and how many more there were. */
    private static String cut(StringBuilder text) {
        if (text.length() <= LAST_ERROR_CHARS) {
            return text.toString();
        }
        // never half of a surrogate pair, which would be stored as '?'
        int end = Character.isHighSurrogate(text.charAt(LAST_ERROR_CHARS - 1)) ? LAST_ERROR_CHARS - 1 : LAST_ERROR_CHARS;
        return text.substring(0, end) + "... (" + (text.length() - end) + " more characters)";
    }

    /**
     * The exception's message ({@code "null"} when it has none), or, when reading it throws (an exception that builds
     * its message from state that is gone, a closed session say), what it threw: the failure is settled all the same.
     */
    private static String messageOf(Throwable error) {
        try {
            return String.valueOf(error.getMessage());
        } catch (RuntimeException | Error unreadable) {
            return "(its getMessage() threw " + unreadable.getClass().getName() + ")";
        }
    }
}
