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

import java.util.Arrays;

/**
 * Reads the record a message is stored as ({@code record.lua}): when it was scheduled, its due time (both epoch ms) and
 * its generation, big-endian unsigned integers of the sizes {@link Wire} gives, then its envelope.
 */
final class StoredRecord {

    private StoredRecord() {
    }

    /** When the message was scheduled, epoch ms of the Redis clock. */
    static long scheduledAt(byte[] record) {
        return unsigned(record, 0, Wire.SCHEDULED_AT_BYTES);
    }

    /** The due time it is (or was last) scheduled for, epoch ms of the Redis clock. */
    static long dueAt(byte[] record) {
        return unsigned(record, Wire.SCHEDULED_AT_BYTES, Wire.DUE_AT_BYTES);
    }

    /** Which version of its message id the record is; see {@code record.lua}. */
    static int generation(byte[] record) {
        return (int) unsigned(record, Wire.SCHEDULED_AT_BYTES + Wire.DUE_AT_BYTES, Wire.GENERATION_BYTES);
    }

    /**
     * The version of its message id a record holds, as the scripts name it: the scheduled-at and generation bytes of
     * its head; see {@code record.lua}.
     */
    static byte[] version(byte[] record) {
        checkHead(record);
        byte[] version = Arrays.copyOf(record, Wire.SCHEDULED_AT_BYTES + Wire.GENERATION_BYTES);
        System.arraycopy(record, Wire.SCHEDULED_AT_BYTES + Wire.DUE_AT_BYTES, version, Wire.SCHEDULED_AT_BYTES,
                Wire.GENERATION_BYTES);
        return version;
    }

    /** The version that these scheduled-at and generation values make; see {@link #version(byte[])}. */
    static byte[] version(long scheduledAt, int generation) {
        byte[] version = new byte[Wire.SCHEDULED_AT_BYTES + Wire.GENERATION_BYTES];
        long value = scheduledAt << 8 * Wire.GENERATION_BYTES | generation;
        for (int i = version.length - 1; i >= 0; i--, value >>>= 8) {
            version[i] = (byte) value;
        }
        return version;
    }

    /** The envelope the record holds after its head. */
    static byte[] envelope(byte[] record) {
        checkHead(record);
        return Arrays.copyOfRange(record, Wire.RECORD_HEAD_BYTES, record.length);
    }

    /** Whether {@code record} has a record's head: one that has none was written behind the component's back. */
    static boolean hasHead(byte[] record) {
        return record != null && record.length >= Wire.RECORD_HEAD_BYTES;
    }

    private static long unsigned(byte[] record, int offset, int length) {
        checkHead(record);
        long value = 0;
        for (int i = offset; i < offset + length; i++) {
            value = value << 8 | (record[i] & 0xFF);
        }
        return value;
    }

    private static void checkHead(byte[] record) {
        if (record == null) {
            throw new IllegalArgumentException("no record");
        }
        if (!hasHead(record)) {
            throw new IllegalArgumentException(
                    "record of " + record.length + " bytes is shorter than its "
                                               + Wire.RECORD_HEAD_BYTES + "-byte head");
        }
    }
}
