package io.github.camelredisdelay;

/**
 * A {@code schedule} with {@code onDuplicate=fail} met a message with the same id on the queue.
 */
public class DuplicateMessageException extends IllegalStateException {

    private final String queue;
    private final String messageId;
    private final long existingDueAt;

    public DuplicateMessageException(String queue, String messageId, long existingDueAt) {
        super("Queue " + queue + " already has a message with id " + messageId
              + (existingDueAt >= 0 ? " due at " + existingDueAt + " (epoch ms)" : " that is ready or in flight")
              + "; onDuplicate=fail rejects scheduling it again (use keep or replace to allow it)");
        this.queue = queue;
        this.messageId = messageId;
        this.existingDueAt = existingDueAt;
    }

    public String getQueue() {
        return queue;
    }

    public String getMessageId() {
        return messageId;
    }

    /** The due time of the existing message in epoch ms, or -1 when it is ready or in flight. */
    public long getExistingDueAt() {
        return existingDueAt;
    }
}
