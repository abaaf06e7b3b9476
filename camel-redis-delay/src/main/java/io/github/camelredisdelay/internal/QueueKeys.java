package io.github.camelredisdelay.internal;

/**
 * The Redis keys and channel of one queue. They share the hash tag {@code {queue}}, so every script of a queue
 * touches a single cluster slot.
 *
 * @param queue the queue name
 * @param due   ZSET message id to due time
 * @param msg   HASH message id to stored record
 * @param ready STREAM of due messages, read through the consumer group {@link #GROUP}
 * @param fail  HASH message id to failure note, only for messages that failed
 * @param wake  pub/sub channel told about a new earliest due time
 */
public record QueueKeys(String queue, String due, String msg, String ready, String fail, String wake) {

    /** The consumer group every consumer of a queue reads through, so each message goes to one of them. */
    public static final String GROUP = "consumers";

    public static QueueKeys of(String keyPrefix, String queue) {
        String base = keyPrefix + ":{" + queue + "}:";
        return new QueueKeys(queue, base + "due", base + "msg", base + "ready", base + "fail", base + "wake");
    }
}
