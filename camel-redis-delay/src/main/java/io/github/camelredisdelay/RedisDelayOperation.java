package io.github.camelredisdelay;

/**
 * What a {@code redis-delay} producer does with an exchange.
 */
public enum RedisDelayOperation {
    /** Store the message and deliver it when it is due. */
    schedule,
    /** Remove a scheduled message by id; the body becomes {@code true} if it was removed. */
    cancel,
    /** Give a scheduled message a new due time; the body becomes {@code true} if it was found. */
    reschedule,
    /** Read the queue's statistics; the body becomes a {@code Map} of them. */
    stats
}
