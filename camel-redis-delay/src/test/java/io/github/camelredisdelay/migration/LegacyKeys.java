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
package io.github.camelredisdelay.migration;

import java.util.List;
import java.util.UUID;

import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.ByteArrayCodec;
import org.redisson.client.codec.StringCodec;

/**
 * The keys a migration from the RDelayedQueue {@code name} reads and writes beside the new queue: Redisson's three, the
 * migration's private set of messages taken over but not yet migrated and the ids it still has to unmark, as
 * docs/migration-from-rdelayedqueue.md names them.
 *
 * @param keyPrefix the component's key prefix
 */
public record LegacyKeys(String name, String keyPrefix) {

    /** Redisson's pending messages by due time. */
    public String timeout() {
        return "redisson_delay_queue_timeout:{" + name + "}";
    }

    /** Redisson's pending messages in offer order. */
    public String order() {
        return "redisson_delay_queue:{" + name + "}";
    }

    /** Redisson's destination list: due, not yet taken. */
    public String destination() {
        return name;
    }

    /** Taken over by a migration, not yet written to the new queue and removed. */
    public String pending() {
        return keyPrefix + ":migrate:{" + name + "}:pending";
    }

    /** Ids of migrated messages removed from {@link #pending()} whose marks on the queue may still be set. */
    public String unmark() {
        return keyPrefix + ":migrate:{" + name + "}:unmark";
    }

    /**
     * Puts {@code value} in Redisson's keys as an offer of Redisson 3.21.1 and later would, due at {@code dueAt} (epoch
     * ms): a time long past stands for a message its old consumers never took.
     */
    public void offerDueAt(RedissonClient redis, String value, long dueAt) {
        redis.getScript(StringCodec.INSTANCE).eval(RScript.Mode.READ_WRITE,
                "local member = struct.pack('Bc0Lc0', 8, ARGV[3], string.len(ARGV[2]), ARGV[2]); "
                                                                            + "redis.call('zadd', KEYS[1], ARGV[1], member); "
                                                                            + "redis.call('rpush', KEYS[2], member)",
                RScript.ReturnType.VALUE, List.of(timeout(), order()), String.valueOf(dueAt), value,
                UUID.randomUUID().toString().substring(0, 8));
    }

    /** Messages the legacy keys still hold, each counted once (the order list repeats the timeout set). */
    public long left(RedissonClient redis) {
        return redis.getScoredSortedSet(timeout(), ByteArrayCodec.INSTANCE).size()
               + redis.getList(destination(), ByteArrayCodec.INSTANCE).size()
               + redis.getScoredSortedSet(pending(), ByteArrayCodec.INSTANCE).size();
    }

    /** Which of the keys holding messages or ids exist, for an assertion that the migration left nothing behind. */
    public List<String> existing(RedissonClient redis) {
        return List.of(timeout(), order(), destination(), pending(), unmark()).stream()
                .filter(key -> redis.getBucket(key).isExists())
                .toList();
    }
}
