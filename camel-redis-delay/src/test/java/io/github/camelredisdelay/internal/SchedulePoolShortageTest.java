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
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import io.github.camelredisdelay.OnDuplicate;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RFuture;
import org.redisson.api.RedissonClient;
import org.redisson.api.redisnode.RedisNode;
import org.redisson.api.redisnode.RedisNodes;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;
import org.redisson.config.ConstantDelay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class SchedulePoolShortageTest extends RedisDelayTestSupport {

    @Test
    void schedulesQueuedBehindACallTheClientsPoolHeldBackAreSentOnceAConnectionIsFreeNotFailedUnsent() throws Exception {
        Config config = new Config();
        config.setCodec(StringCodec.INSTANCE);
        config.useSingleServer().setAddress(RedisServerExtension.redisUrl()).setConnectionPoolSize(1)
                .setConnectionMinimumIdleSize(1).setRetryAttempts(1).setRetryDelay(new ConstantDelay(Duration.ofMillis(500)));
        RedissonClient client = Redisson.create(config);
        try {
            String parkedList = keyPrefix + ":parked";
            // the pool's only connection waits in a blocking pop, as a starved pool's connections do
            RFuture<String> parked = client.<String>getBlockingQueue(parkedList).pollAsync(10, TimeUnit.SECONDS);
            await().atMost(Duration.ofSeconds(5)).until(() -> blockedClients() == 1);
            QueueShard queue = new QueueShard(ConnectedClient.borrowed(client), QueueKeys.of(keyPrefix, "starved"));
            byte[] envelope = EnvelopeCodec.encode(new Envelope("x", Map.of()));

            CompletableFuture<ScheduleResult> first
                    = queue.scheduleAsync("first", envelope, DueTime.after(60_000), OnDuplicate.keep).toCompletableFuture();
            // the pool frees its connection the moment the first call gave up waiting for it
            CompletableFuture<Void> freed = first.handle((result, failure) -> null)
                    .thenCompose(gaveUp -> redis().getQueue(parkedList).addAsync("go").thenAccept(added -> {
                    }));
            List<CompletableFuture<ScheduleResult>> queued = IntStream.rangeClosed(1, 5)
                    .mapToObj(n -> queue.scheduleAsync("queued-" + n, envelope, DueTime.after(60_000), OnDuplicate.keep)
                            .toCompletableFuture())
                    .toList();

            assertThatThrownBy(() -> first.get(10, TimeUnit.SECONDS)).hasMessageContaining("Unable to acquire connection");
            freed.get(10, TimeUnit.SECONDS);
            parked.toCompletableFuture().get(10, TimeUnit.SECONDS);
            for (CompletableFuture<ScheduleResult> request : queued) {
                assertThat(request.get(10, TimeUnit.SECONDS).scheduled())
                        .as("a schedule queued behind a call the client's pool held back, Redis answering").isTrue();
            }
        } finally {
            client.shutdown(0, 2, TimeUnit.SECONDS);
        }
    }

    private long blockedClients() {
        String info = redis().getRedisNodes(RedisNodes.SINGLE).getInstance()
                .info(RedisNode.InfoSection.CLIENTS).get("blocked_clients");
        return Long.parseLong(info);
    }
}
