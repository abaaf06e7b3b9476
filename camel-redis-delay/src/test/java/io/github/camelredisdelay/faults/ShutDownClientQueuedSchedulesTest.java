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
package io.github.camelredisdelay.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.OnDuplicate;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.internal.ConnectedClient;
import io.github.camelredisdelay.internal.DueTime;
import io.github.camelredisdelay.internal.Envelope;
import io.github.camelredisdelay.internal.EnvelopeCodec;
import io.github.camelredisdelay.internal.QueueKeys;
import io.github.camelredisdelay.internal.QueueShard;
import io.github.camelredisdelay.internal.ScheduleResult;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.RedissonShutdownException;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Many schedules queued behind a call under way when the Redis client shuts down: the call fails, and so does every
 * call sent after it, at once (the client refuses it before it returns). Each failed call must hand its schedules their
 * failure and send the next batch without one stack frame per batch: thousands of batches would overflow the stack of
 * the thread that got the first failure, and the schedules of the batch that overflowed would never complete.
 */
class ShutDownClientQueuedSchedulesTest extends FaultTestSupport {

    /**
     * 1,500 calls of 100 schedules: without the loop, the stack overflowed after about 570 (120,000 queued: 63,499
     * never completed).
     */
    private static final int QUEUED = 150_000;

    @Test
    void everyScheduleQueuedBehindACallWhenTheClientShutsDownFailsAndNoneOverflowsTheStack() throws Exception {
        RedisServerProcess server = redisProcess();
        Config config = new Config();
        config.useSingleServer().setAddress(RedisServerExtension.redisUrl());
        RedissonClient client = Redisson.create(config);
        try {
            QueueShard queue = new QueueShard(ConnectedClient.borrowed(client), QueueKeys.of(keyPrefix, "shut"));
            byte[] envelope = EnvelopeCodec.encode(new Envelope("x", Map.of()));
            queue.schedule("warm-up", envelope, DueTime.after(3_600_000), OnDuplicate.keep);
            server.command("CLIENT", "PAUSE", "20000", "WRITE");

            // the first call (and perhaps a second beside it) waits out the pause; the rest queue behind it
            List<CompletableFuture<ScheduleResult>> schedules = new ArrayList<>(QUEUED);
            for (int i = 0; i < QUEUED; i++) {
                schedules.add(queue.scheduleAsync("m" + i, envelope, DueTime.after(3_600_000), OnDuplicate.keep)
                        .toCompletableFuture());
            }
            client.shutdown(0, 2, TimeUnit.SECONDS);

            await("schedules never completed").atMost(Duration.ofSeconds(60))
                    .until(() -> schedules.stream().filter(schedule -> !schedule.isDone()).count(), Matchers.is(0L));
            for (CompletableFuture<ScheduleResult> schedule : schedules) {
                assertThat(schedule).isCompletedExceptionally();
            }
            assertThat(schedules.get(QUEUED - 1)).failsWithin(Duration.ZERO).withThrowableThat()
                    .havingRootCause().isInstanceOf(RedissonShutdownException.class);
            long overflowed = schedules.stream().filter(schedule -> schedule.handle((result, failure) -> failure)
                    .join().toString().contains("StackOverflowError")).count();
            assertThat(overflowed).as("schedules failed with a StackOverflowError").isZero();
        } finally {
            server.command("CLIENT", "UNPAUSE");
            client.shutdown(0, 2, TimeUnit.SECONDS);
        }
    }
}
