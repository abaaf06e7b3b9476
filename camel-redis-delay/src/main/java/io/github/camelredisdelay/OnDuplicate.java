package io.github.camelredisdelay;

/**
 * What a {@code schedule} does when a message with the same id already exists on the queue.
 */
public enum OnDuplicate {
    /** Keep the existing message and its due time; the schedule is idempotent. */
    keep,
    /** Replace the existing message's body, headers and due time while it is still scheduled. */
    replace,
    /** Fail the exchange with a {@link DuplicateMessageException}. */
    fail
}
