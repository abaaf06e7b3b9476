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
package io.github.camelredisdelay;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.camelredisdelay.internal.QueueGuard;
import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.redisson.api.RTopic;
import org.redisson.api.redisnode.RedisNodes;
import org.redisson.api.redisnode.RedisSingle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An idle context with a queue per tenant whose consumers share one dead-letter queue: the dead-letter queue's shard
 * count is checked (a script that writes its record) by one {@link QueueGuard} of the context every 10 s, as any
 * queue's is however many endpoints name it, not once per consumer.
 */
@CamelSide
class SharedDeadLetterQueueCheckTest extends RedisDelayTestSupport {

    private static final int TENANTS = 20;
    /** QueueGuard's period. */
    private static final Duration CHECK_PERIOD = Duration.ofSeconds(10);

    @Test
    void consumersOfManyQueuesSharingADeadLetterQueueCheckItOnceAPeriodBetweenThem() throws Exception {
        RedisSingle redis = redis().getRedisNodes(RedisNodes.SINGLE);
        redis.getInstance().setConfig("notify-keyspace-events", "Kh");
        try {
            AtomicInteger recordWrites = new AtomicInteger();
            RTopic writes = redis().getTopic("__keyspace@0__:" + key("failed", "shards"));
            writes.addListener(String.class, (channel, event) -> recordWrites.incrementAndGet());
            startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    for (int i = 0; i < TENANTS; i++) {
                        from("redis-delay:tenant-" + i + "?deadLetterQueue=failed").routeId("tenant-" + i).log("${body}");
                    }
                    // an operator's route on the dead-letter queue itself: its check is the same
                    from("redis-delay:failed").routeId("failed").log("${body}");
                }
            });
            await("the first checks").atMost(Duration.ofSeconds(10)).until(() -> recordWrites.get() > 0);

            int before = recordWrites.get();
            await("one check period").pollDelay(CHECK_PERIOD).atMost(CHECK_PERIOD.plusSeconds(1)).until(() -> true);
            int inPeriod = recordWrites.get() - before;

            // one guard checking every 10 s runs once or twice within 10 s; one per consumer would run ~TENANTS times
            assertThat(inPeriod).as("writes of the shared dead-letter queue's shard record in %s idle", CHECK_PERIOD)
                    .isLessThanOrEqualTo(2);
        } finally {
            redis.getInstance().setConfig("notify-keyspace-events", "");
        }
    }
}
