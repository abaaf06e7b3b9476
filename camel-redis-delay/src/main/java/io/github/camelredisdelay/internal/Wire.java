package io.github.camelredisdelay.internal;

/**
 * Values shared with the Lua scripts, under the names {@code wire.lua} gives them (WireTest checks that both agree):
 * the record's head, the fields of a ready-stream entry, script statuses and the wake channel's ready notice.
 */
public final class Wire {

    /** Bytes of the record's head: scheduled-at, due time, generation. */
    public static final int SCHEDULED_AT_BYTES = 6;
    public static final int DUE_AT_BYTES = 7;
    public static final int GENERATION_BYTES = 2;
    public static final int RECORD_HEAD_BYTES = 15;

    /** Fields of a ready-stream entry: message id, record, failure note. */
    public static final String FIELD_ID = "i";
    public static final String FIELD_RECORD = "r";
    public static final String FIELD_FAILURE = "f";

    /** Statuses of {@code schedule.lua} and {@code reschedule.lua}. */
    public static final int STATUS_KEPT = 0;
    public static final int STATUS_SCHEDULED = 1;
    public static final int STATUS_DUPLICATE = 2;
    public static final int STATUS_DUE_OVERFLOW = 3;

    /** Statuses of {@code retry.lua}. */
    public static final int RETRY_NOT_PENDING = 0;
    public static final int RETRY_SCHEDULED = 1;
    public static final int RETRY_SUPERSEDED = 2;

    /** The wake channel's notice that messages went to the ready stream. */
    public static final String WAKE_READY = "ready";

    private Wire() {
    }
}
