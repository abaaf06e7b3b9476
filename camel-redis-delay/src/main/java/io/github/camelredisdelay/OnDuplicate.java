package io.github.camelredisdelay;

/**
 * What a {@code schedule} does when a message with the same id already exists on the queue. A re-delay (a schedule
 * of the same id onto the same queue from the exchange that is delivering that message) always replaces.
 */
public enum OnDuplicate {
    /** Keep the existing message and its due time; the schedule is idempotent. */
    keep,
    /**
     * Store the new body, headers and due time. A scheduled message is replaced; one that is already ready or in
     * flight is delivered as it was, and the new version is delivered at its own due time.
     */
    replace,
    /** Fail the exchange with a {@link DuplicateMessageException}. */
    fail
}
