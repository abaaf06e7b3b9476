package io.github.camelredisdelay.internal;

/**
 * The Redis keys and channel of one queue, or of one shard of a sharded queue. They share one hash tag
 * ({@code {queue}}, or the shard's tag, see {@link ShardTags}), so every script touches a single cluster slot.
 *
 * @param queue the queue name (the same for every shard)
 * @param due   ZSET message id to due time
 * @param msg   HASH message id to stored record
 * @param ready STREAM of due messages, read through the consumer group {@link #GROUP}
 * @param fail  HASH message id to failure note, only for messages that failed
 * @param wake  pub/sub channel told about a new earliest due time
 */
public record QueueKeys(String queue, String due, String msg, String ready, String fail, String wake, String migrated) {

    /** The consumer group every consumer of a queue reads through, so each message goes to one of them. */
    public static final String GROUP = "consumers";

    public static QueueKeys of(String keyPrefix, String queue) {
        return of(keyPrefix, queue, queue);
    }

    /**
     * The keys of the shard of {@code queue} with hash tag {@code tag}.
     */
    public static QueueKeys of(String keyPrefix, String queue, String tag) {
        String base = keyPrefix + ":{" + tag + "}:";
        return new QueueKeys(queue, base + "due", base + "msg", base + "ready", base + "fail", base + "wake", base + "migrated");
    }
}
