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

/**
 * One stored message as {@code peek.lua} read it, without changing it.
 *
 * @param queue          the queue that holds it: for a dead letter, the dead-letter queue
 * @param id             the message id
 * @param state          {@code scheduled}, {@code ready}, {@code inflight}, or {@code dead} when it was found in the
 *                       dead-letter queue
 * @param scheduledAt    when it was scheduled, epoch ms of the Redis clock
 * @param dueAt          its due time, epoch ms of the Redis clock
 * @param envelope       the stored body and headers ({@link EnvelopeCodec})
 * @param failure        its failed deliveries so far, or {@code null} when none failed
 * @param timesDelivered in flight, the deliveries of its stream entry: the one under way and those whose lease expired
 *                       (Redis' delivery counter, as {@link StreamEntries#toDelivery} counts them); else 0
 * @param version        the version its record holds ({@code record.lua})
 */
public record InspectedMessage(String queue, String id, String state, long scheduledAt, long dueAt, byte[] envelope,
        FailureNote failure, int timesDelivered, byte[] version) {

    static InspectedMessage of(String queue, String id, String state, byte[] record, byte[] note, long timesDelivered) {
        FailureNote failure = note == null ? null : FailureNote.parse(new String(note, StandardCharsets.UTF_8));
        return new InspectedMessage(
                queue, id, state, StoredRecord.scheduledAt(record), StoredRecord.dueAt(record),
                StoredRecord.envelope(record), failure, Math.toIntExact(timesDelivered), StoredRecord.version(record));
    }

    /** The same message, found in a dead-letter queue: its deliveries from there, if in flight, still count. */
    InspectedMessage dead() {
        return new InspectedMessage(queue, id, "dead", scheduledAt, dueAt, envelope, failure, timesDelivered, version);
    }

    /**
     * Deliveries so far, as the route counts them: the failed ones, plus, in flight, the one under way and those whose
     * lease expired.
     */
    public int deliveryCount() {
        return (failure == null ? 0 : failure.failedDeliveries()) + timesDelivered;
    }
}
