package io.github.camelredisdelay.internal;

/**
 * Told what the wake channel of one queue (or shard) announces; see {@link WakeChannels}. Called on Redisson's
 * threads: implementations only arm timers or signal waiting threads.
 */
public interface WakeListener {

    /** A schedule or retry made a due time the earliest of the queue, {@code delayMs} from now. */
    default void earliestDueIn(long delayMs) {
    }

    /** Messages went to the ready stream (a transfer moved some, or a schedule was due at once). */
    default void messagesReady() {
    }

    /** The subscription was made or made again after a reconnect: announcements may have been missed. */
    void subscribed();
}
