package io.github.camelredisdelay.internal;

/**
 * The counts of a queue and of its dead-letter queue, as read together by one refresh of {@link QueueStatistics}.
 *
 * @param counts       the queue's messages by state (every shard added up)
 * @param deadLettered messages in the queue's dead-letter queue
 * @param takenAtNanos when the reply arrived, {@link System#nanoTime()}
 */
public record QueueSnapshot(QueueCounts counts, long deadLettered, long takenAtNanos) {

    /** Whether this snapshot is at most {@code maxAgeMs} old. */
    boolean youngerThan(long maxAgeMs, long nowNanos) {
        return nowNanos - takenAtNanos < maxAgeMs * 1_000_000L;
    }
}
