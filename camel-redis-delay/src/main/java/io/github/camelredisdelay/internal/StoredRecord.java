package io.github.camelredisdelay.internal;

import java.util.Arrays;

/**
 * Reads the record a message is stored as ({@code record.lua}): when it was scheduled (6 bytes), its due time
 * (7 bytes), both epoch ms, and its generation (2 bytes), all big-endian unsigned integers, then its envelope.
 */
final class StoredRecord {

    private static final int SCHEDULED_AT_BYTES = 6;
    private static final int DUE_AT_BYTES = 7;
    private static final int GENERATION_BYTES = 2;
    private static final int HEAD_BYTES = SCHEDULED_AT_BYTES + DUE_AT_BYTES + GENERATION_BYTES;

    private StoredRecord() {
    }

    /** When the message was scheduled, epoch ms of the Redis clock. */
    static long scheduledAt(byte[] record) {
        return unsigned(record, 0, SCHEDULED_AT_BYTES);
    }

    /** The due time it is (or was last) scheduled for, epoch ms of the Redis clock. */
    static long dueAt(byte[] record) {
        return unsigned(record, SCHEDULED_AT_BYTES, DUE_AT_BYTES);
    }

    /** Which version of its message id the record is; see {@code record.lua}. */
    static int generation(byte[] record) {
        return (int) unsigned(record, SCHEDULED_AT_BYTES + DUE_AT_BYTES, GENERATION_BYTES);
    }

    /** The envelope the record holds after its head. */
    static byte[] envelope(byte[] record) {
        checkHead(record);
        return Arrays.copyOfRange(record, HEAD_BYTES, record.length);
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
        if (record.length < HEAD_BYTES) {
            throw new IllegalArgumentException("record of " + record.length + " bytes is shorter than its "
                                               + HEAD_BYTES + "-byte head");
        }
    }
}
