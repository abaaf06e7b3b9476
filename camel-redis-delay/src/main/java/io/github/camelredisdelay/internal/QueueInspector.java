package io.github.camelredisdelay.internal;

/**
 * Looks into a queue and its dead-letter queue for operators: one message by id, and removing every message.
 */
public final class QueueInspector {

    /** The most messages one {@code purge.lua} call removes from each of the due set and the ready stream. */
    public static final int PURGE_CHUNK = 500;

    private final ShardedQueue queue;
    private final ShardedQueue deadLetterQueue;

    public QueueInspector(ShardedQueue queue, ShardedQueue deadLetterQueue) {
        this.queue = queue;
        this.deadLetterQueue = deadLetterQueue;
    }

    /**
     * The message with this id in the queue, or else in its dead-letter queue (state {@code dead}).
     *
     * @return the message, or {@code null} when neither holds one with this id
     */
    public InspectedMessage peek(String id) {
        return queue.peek(id, deadLetterQueue);
    }

    /**
     * Removes every message of the queue, whatever its state, {@link #PURGE_CHUNK} at a time.
     *
     * @return the messages removed
     */
    public long purge() {
        return queue.purge(PURGE_CHUNK);
    }
}
