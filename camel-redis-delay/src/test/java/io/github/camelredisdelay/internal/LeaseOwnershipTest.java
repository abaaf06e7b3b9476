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

import java.util.List;
import java.util.Map;

import io.github.camelredisdelay.OnDuplicate;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RStream;
import org.redisson.api.stream.StreamMessageId;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A consumer whose lease expired and was taken over by another (it hung, or could not reach Redis, longer than the
 * visibility timeout) leaves the message to the new holder: it neither takes the lease back nor retries nor
 * dead-letters the message the other consumer is working on.
 */
class LeaseOwnershipTest extends RedisDelayTestSupport {

    private QueueShard queue;
    private RStream<Object, Object> ready;
    private Delivery slow;

    @BeforeEach
    void messageTakenOverFromASlowConsumer() {
        queue = new QueueShard(ConnectedClient.borrowed(redis()), QueueKeys.of(keyPrefix, "q"));
        ready = redis().getStream(key("q", "ready"));
        queue.schedule("a", EnvelopeCodec.encode(new Envelope("x", Map.of())), DueTime.after(0), OnDuplicate.keep);
        queue.group().create();
        slow = queue.group().readNew("slow", 10, null).get(0);
        assertThat(queue.group().reclaim("other", 0, 10, Reclaimed.FROM_START).deliveries()).hasSize(1);
    }

    @Test
    void extendingLeasesDoesNotTakeBackOneAnotherConsumerHolds() {
        queue.group().extendLeases("slow", List.of(slow.entryId())).toCompletableFuture().join();

        assertThat(holder(slow.entryId())).isEqualTo("other");
    }

    @Test
    void retryOfADeliveryAnotherConsumerHoldsChangesNothing() {
        assertThat(queue.group().retry("slow", slow, 0, "java.lang.IllegalStateException: boom")).contains(Refusal.LEASE_LOST);

        assertThat(holder(slow.entryId())).isEqualTo("other");
        assertThat(redis().getMap(key("q", "fail")).isExists()).isFalse();
        assertThat(redis().getScoredSortedSet(key("q", "due")).isExists()).isFalse();
    }

    @Test
    void deadLetteringADeliveryAnotherConsumerHoldsChangesNothing() {
        ShardedQueue deadLetterQueue
                = ShardedQueue.of(ConnectedClient.borrowed(redis()), keyPrefix, "q.dead", 1, WriteSync.NONE, Runnable::run);

        assertThat(new DeadLetters(queue, deadLetterQueue).move("slow", slow, "boom").refusal()).isEqualTo(Refusal.LEASE_LOST);

        assertThat(holder(slow.entryId())).isEqualTo("other");
        assertThat(redis().getStream(key("q.dead", "ready")).isExists()).isFalse();
        assertThat(redis().getMap(key("q", "msg")).containsKey("a")).isTrue();
    }

    private String holder(StreamMessageId entryId) {
        return ready.listPending(QueueKeys.GROUP, entryId, entryId, 1).get(0).getConsumerName();
    }
}
