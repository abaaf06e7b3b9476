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

import java.time.Duration;
import java.util.List;

import org.redisson.api.RedissonClient;

/**
 * The shards of one queue ({@code shards} option): each a {@link QueueShard} with keys of its own hash tag (see
 * {@link ShardTags}). A message lives on the shard its id picks; consumers and transfer tasks serve every shard. With
 * one shard this is just the queue.
 */
public final class ShardedQueue {

    private final String name;
    private final List<QueueShard> shards;

    private ShardedQueue(String name, List<QueueShard> shards) {
        this.name = name;
        this.shards = shards;
    }

    public static ShardedQueue of(RedissonClient client, String keyPrefix, String queue, int shards, WriteSync sync) {
        return new ShardedQueue(
                queue, ShardTags.of(queue, shards).stream()
                        .map(tag -> new QueueShard(client, QueueKeys.of(keyPrefix, queue, tag), sync))
                        .toList());
    }

    public String name() {
        return name;
    }

    /** Every shard, shard 0 first. */
    public List<QueueShard> all() {
        return shards;
    }

    /** The shard that holds (or will hold) the message with this id. */
    public QueueShard forMessage(String messageId) {
        return shards.get(ShardTags.shardOf(messageId, shards.size()));
    }

    /** Shard 0: the one to ask for things every shard answers alike, such as Redis' clock. */
    public QueueShard first() {
        return shards.get(0);
    }

    /**
     * The counts of every shard added up; the oldest overdue time is the largest of any shard.
     */
    public QueueCounts counts() {
        long scheduled = 0;
        long ready = 0;
        long inFlight = 0;
        long oldestOverdueMs = 0;
        long redisNow = 0;
        for (QueueShard shard : shards) {
            QueueCounts counts = shard.counts();
            scheduled += counts.scheduled();
            ready += counts.ready();
            inFlight += counts.inFlight();
            oldestOverdueMs = Math.max(oldestOverdueMs, counts.oldestOverdueMs());
            redisNow = Math.max(redisNow, counts.redisNow());
        }
        return new QueueCounts(scheduled, ready, inFlight, oldestOverdueMs, redisNow);
    }

    /** All messages of every shard, whatever their state. */
    public long size() {
        return shards.stream().mapToLong(QueueShard::size).sum();
    }

    /**
     * Checks that the Redis of every shard answers within {@code timeout} (shards may live on different masters).
     *
     * @throws Exception the first failure or time-out
     */
    public void ping(Duration timeout) throws Exception {
        for (QueueShard shard : shards) {
            shard.ping(timeout);
        }
    }
}
