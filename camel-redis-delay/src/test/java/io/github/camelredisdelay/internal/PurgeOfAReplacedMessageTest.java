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
import java.util.Map;

import io.github.camelredisdelay.OnDuplicate;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A purge, call by call, while a message it started with is moved to the ready stream and replaced (a re-delay of its
 * delivery, say) by a version due after the latest due time of the purge's start, which the purge may leave.
 */
class PurgeOfAReplacedMessageTest extends RedisDelayTestSupport {

    private QueueShard queue;

    @BeforeEach
    void createQueue() {
        queue = new QueueShard(ConnectedClient.borrowed(redis()), QueueKeys.of(keyPrefix, "q"));
        queue.group().create();
    }

    private static byte[] envelope(String body) {
        return EnvelopeCodec.encode(new Envelope(body, Map.of()));
    }

    private long transfer() throws Exception {
        return queue.transfer(1000).toCompletableFuture().get().moved();
    }

    @Test
    void anIdScheduledAgainAfterThePurgeIsNotDeliveredAtTheDueTimeOfTheVersionThePurgeTookTheRecordOf() throws Exception {
        long now = queue.redisTimeMillis();
        queue.schedule("f", envelope("f"), DueTime.at(now + 100), OnDuplicate.keep);
        queue.schedule("a", envelope("v1"), DueTime.at(now + 200), OnDuplicate.keep);
        queue.schedule("z", envelope("z"), DueTime.at(now + 2_000), OnDuplicate.keep);
        // one message per call: the first walks the due set up to z's due time and removes f
        PurgeProgress progress = queue.inspection().purgeChunk(1, PurgeProgress.START);
        // a falls due meanwhile and goes to the ready stream ahead of the walk, which the purge's last calls remove
        await().atMost(Duration.ofSeconds(5)).until(() -> transfer() == 1);
        long replacedDue = now + 3_000;
        queue.schedule("a", envelope("v2"), DueTime.at(replacedDue), OnDuplicate.replace);
        for (int call = 0; call < 10 && !progress.done(); call++) {
            progress = queue.inspection().purgeChunk(1, progress);
        }
        assertThat(progress.done()).isTrue();

        // a scheduled again, for an hour later, behind messages that put that due time into a bucket of its own
        for (int i = 1; i <= 64; i++) {
            queue.schedule("g" + i, envelope("g"), DueTime.at(replacedDue + i), OnDuplicate.keep);
        }
        ScheduleResult again = queue.schedule("a", envelope("v3"), DueTime.at(now + 3_600_000), OnDuplicate.replace);
        assertThat(again.scheduled()).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> queue.redisTimeMillis() > replacedDue + 64);
        transfer();

        assertThat(queue.group().readNew("c1", 1000, null)).noneSatisfy(delivery -> {
            assertThat(delivery.messageId()).isEqualTo("a");
            assertThat(delivery.dueAt()).isGreaterThan(replacedDue);
        });
    }
}
