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

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds an endpoint whose {@code shards} option differs from the shard count its queue is stored in: the first endpoint
 * of a queue records its count in Redis; a later one with another count may change it only while the queue holds no
 * message, since the messages of the shards that go away would never be delivered (and producers and consumers that
 * disagree write to shards nobody reads).
 */
public final class ShardCountCheck {

    private static final Logger LOG = LoggerFactory.getLogger(ShardCountCheck.class);

    private ShardCountCheck() {
    }

    /**
     * Records or compares the shard count of {@code queue}.
     *
     * @return when Redis answered: empty when {@code queue}'s count is the one recorded now, else why it cannot be used
     */
    public static CompletionStage<Optional<String>> run(RedissonClient client, String keyPrefix, ShardedQueue queue) {
        int shards = queue.all().size();
        QueueShard first = queue.first();
        return first.recordShardCountAsync(shards, false).thenCompose(recorded -> {
            if (recorded == shards) {
                return CompletableFuture.completedFuture(Optional.empty());
            }
            ShardedQueue stored = ShardedQueue.of(client, keyPrefix, queue.name(), recorded.intValue(), WriteSync.NONE,
                    Runnable::run);
            return messages(stored).thenCompose(held -> {
                if (held > 0) {
                    return CompletableFuture.completedFuture(Optional.of("Queue " + queue.name() + " is stored in "
                                                                         + recorded + " shards, which hold " + held
                                                                         + " messages, but this endpoint has shards="
                                                                         + shards
                                                                         + ": those messages would never be delivered."
                                                                         + " Use shards=" + recorded
                                                                         + " (on every endpoint of the queue), or change"
                                                                         + " it once the queue is empty."));
                }
                return first.recordShardCountAsync(shards, true).thenApply(now -> {
                    LOG.info("Queue {} held no messages: its shard count changes from {} to {}", queue.name(), recorded,
                            shards);
                    return Optional.<String>empty();
                });
            });
        });
    }

    private static CompletionStage<Long> messages(ShardedQueue queue) {
        CompletionStage<Long> total = CompletableFuture.completedFuture(0L);
        for (QueueShard shard : queue.all()) {
            total = total.thenCombine(shard.sizeAsync(), (sum, size) -> sum + size);
        }
        return total;
    }
}
