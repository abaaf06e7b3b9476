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

import org.redisson.api.stream.StreamMessageId;

/**
 * A message read from a queue's ready stream, leased to this consumer until it is acknowledged.
 *
 * @param entryId       the stream entry, the handle for acknowledging or extending the lease
 * @param messageId     the message id
 * @param dueAt         the due time Redis stored (epoch ms, Redis clock)
 * @param scheduledAt   when it was scheduled (epoch ms, Redis clock)
 * @param generation    which version of the message id was delivered ({@code record.lua}), or {@link #ANY_GENERATION}
 *                      when the stored entry could not be read
 * @param deliveryCount 1 on the first delivery
 * @param expiredLeases deliveries of this stream entry before this one, each ended by a lease that expired (its
 *                      consumer crashed, hung or was too slow): 0 when the delivery before it failed and was retried,
 *                      or when there was none
 * @param envelope      the stored envelope, still encoded; the raw stored bytes when {@code problem} is set
 * @param lastError     the last failed delivery's error, or {@code null}
 * @param problem       why the stored entry cannot be delivered (it is corrupt), or {@code null}
 */
public record Delivery(StreamMessageId entryId, String messageId, long dueAt, long scheduledAt, int generation,
        int deliveryCount, int expiredLeases, byte[] envelope, String lastError, String problem) {

    /**
     * The generation of a delivery whose entry could not be read: it is settled as the version its record's head names,
     * or, without one, as a stored value that is no record either (see {@code ConsumerGroup}).
     */
    public static final int ANY_GENERATION = -1;

    /** Deliveries of this stream entry including this one: its delivery counter in Redis when it was fetched. */
    public int timesDelivered() {
        return expiredLeases + 1;
    }

    /** A stream entry that cannot be read as a message; it can only go to the dead-letter queue. */
    static Delivery corrupt(StreamMessageId entryId, String messageId, byte[] raw, String problem) {
        return new Delivery(
                entryId, messageId != null ? messageId : entryId.toString(), -1, -1, ANY_GENERATION, 1, 0,
                raw != null ? raw : new byte[0], null, problem);
    }
}
