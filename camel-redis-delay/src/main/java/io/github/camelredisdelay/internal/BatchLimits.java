package io.github.camelredisdelay.internal;

/**
 * How much one script call carries at most, so that no call blocks Redis for long.
 */
public final class BatchLimits {

    /** Most concurrent schedules sent together in one call ({@link GroupCommit}). */
    public static final int GROUP_COMMIT_MESSAGES = 100;
    /** Most envelope bytes of concurrent schedules in one call; a larger message goes alone. */
    public static final long GROUP_COMMIT_BYTES = 1 << 20;
    /** Most messages of a {@code scheduleBatch} stored by one call. */
    public static final int SCHEDULE_BATCH_MESSAGES = 1000;
    /** Most envelope bytes of a {@code scheduleBatch} stored by one call. */
    public static final long SCHEDULE_BATCH_BYTES = 1 << 20;

    private BatchLimits() {
    }
}
