/*
 * Copyright The camel-redis-delay authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.github.camelredisdelay.internal;

/**
 * The Redis keys and channel of one queue, or of one shard of a sharded queue. They share one hash tag
 * ({@code {queue}}, or the shard's tag, see {@link ShardTags}), so every script touches a single cluster slot.
 *
 * @param queue    the queue name (the same for every shard)
 * @param tag      the hash tag: the queue name, or the shard's tag
 * @param due      ZSET index of the due set's buckets (see {@code due-set.lua})
 * @param msg      HASH message id to stored record
 * @param ready    STREAM of due messages, read through the consumer group {@link #GROUP}
 * @param fail     HASH message id to failure note, only for messages that failed
 * @param wake     pub/sub channel told about a new earliest due time
 * @param migrated SET ids written by a migration from an RDelayedQueue
 * @param absent   a key never written, declared to every script: while the slot moves to another master, Redis refuses
 *                 a script one of whose keys it lacks ({@code TRYAGAIN}), so no script runs on half of the queue's keys
 *                 and fails after its first writes on a bucket of the due set (keys the scripts do not declare)
 */
public record QueueKeys(String queue, String tag, String due, String msg, String ready, String fail, String wake,
        String migrated,
        String absent) {

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
        return new QueueKeys(
                queue, tag, base + "due", base + "msg", base + "ready", base + "fail", base + "wake", base + "migrated",
                base + "absent");
    }
}
