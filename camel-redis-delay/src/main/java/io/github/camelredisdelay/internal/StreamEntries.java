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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.redisson.api.stream.StreamMessageId;

/**
 * Reads the fields of a ready-stream entry written by {@code transfer.lua} or {@code schedule.lua}: {@code i} message
 * id, {@code r} record (scheduled-at, due time and generation, then the envelope) and, for a message that failed
 * before, {@code f} ({@code "<failed deliveries>:<last error>"}). An entry that does not read becomes a
 * {@link Delivery#corrupt corrupt} delivery instead of an exception, so one bad entry never blocks a queue.
 */
final class StreamEntries {

    private StreamEntries() {
    }

    /**
     * @param timesDelivered deliveries of this stream entry including the current one (1 for a first read)
     */
    static Delivery toDelivery(StreamMessageId entryId, Map<String, byte[]> fields, int timesDelivered) {
        String id = text(fields.get(Wire.FIELD_ID));
        byte[] record = fields.get(Wire.FIELD_RECORD);
        try {
            long dueAt = StoredRecord.dueAt(record);
            long scheduledAt = StoredRecord.scheduledAt(record);
            int generation = StoredRecord.generation(record);
            byte[] envelope = StoredRecord.envelope(record);
            int failed = 0;
            String lastError = null;
            byte[] failure = fields.get(Wire.FIELD_FAILURE);
            if (failure != null) {
                FailureNote note = FailureNote.parse(text(failure));
                failed = note.failedDeliveries();
                lastError = note.lastError();
            }
            if (id == null) {
                throw new IllegalArgumentException("no message id");
            }
            return new Delivery(
                    entryId, id, dueAt, scheduledAt, generation, failed + timesDelivered, timesDelivered - 1, envelope,
                    lastError, null);
        } catch (RuntimeException e) {
            return Delivery.corrupt(entryId, id, record, "unreadable stream entry " + entryId + ": " + e);
        }
    }

    /**
     * Reads entries returned by a script: {@code {entry id, {field, value, ...}, [times delivered]}}; without the third
     * element an entry is on its first delivery.
     */
    static List<Delivery> fromScriptReply(List<Object> entries) {
        List<Delivery> deliveries = new ArrayList<>(entries.size());
        for (Object entry : entries) {
            List<?> parts = (List<?>) entry;
            StreamMessageId entryId = StreamIds.parse(new String((byte[]) parts.get(0), StandardCharsets.US_ASCII));
            List<?> flat = (List<?>) parts.get(1);
            Map<String, byte[]> fields = new HashMap<>();
            for (int i = 0; i + 1 < flat.size(); i += 2) {
                fields.put(new String((byte[]) flat.get(i), StandardCharsets.UTF_8), (byte[]) flat.get(i + 1));
            }
            int timesDelivered = parts.size() > 2 ? ((Number) parts.get(2)).intValue() : 1;
            deliveries.add(toDelivery(entryId, fields, timesDelivered));
        }
        return deliveries;
    }

    private static String text(byte[] value) {
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }
}
