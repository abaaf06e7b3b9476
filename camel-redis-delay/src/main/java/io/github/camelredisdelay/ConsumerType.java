package io.github.camelredisdelay;

/**
 * How a {@code redis-delay} consumer fetches due messages.
 */
public enum ConsumerType {
    /** Long-polling threads that receive a message as soon as it is due. */
    blocking,
    /** Scheduled polls every {@code pollInterval}. */
    polling
}
