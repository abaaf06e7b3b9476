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
import java.util.Map;

import io.github.camelredisdelay.OnDuplicate;
import io.github.camelredisdelay.internal.ConnectedClient;
import io.github.camelredisdelay.internal.Delivery;
import io.github.camelredisdelay.internal.DueTime;
import io.github.camelredisdelay.internal.Envelope;
import io.github.camelredisdelay.internal.EnvelopeCodec;
import io.github.camelredisdelay.internal.LeaseKeeper;
import io.github.camelredisdelay.internal.QueueKeys;
import io.github.camelredisdelay.internal.QueueShard;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One thread extends the leases of every consumer of a component ({@code RedisDelayComponent}'s lease timer): a Redis
 * that does not answer must not hold it, or the leases of queues on other, healthy servers expire meanwhile and their
 * messages go to a second consumer while the first still runs them.
 */
class PausedRedisLeaseTest extends FaultTestSupport {

    private static final long PAUSE_MS = 3_000;

    @Test
    void extendingLeasesDoesNotWaitForARedisThatDoesNotAnswer() {
        QueueShard queue = new QueueShard(ConnectedClient.borrowed(redis()), QueueKeys.of(keyPrefix, "paused"));
        queue.schedule("a", EnvelopeCodec.encode(new Envelope("x", Map.of())), DueTime.after(0), OnDuplicate.keep);
        queue.group().create();
        Delivery delivery = queue.group().readNew("c1", 1, null).get(0);
        LeaseKeeper leases = new LeaseKeeper(queue, "c1");
        leases.started(delivery);

        redisProcess().command("CLIENT", "PAUSE", String.valueOf(PAUSE_MS), "WRITE");
        Duration took;
        try {
            long started = System.nanoTime();
            leases.extend();
            took = Duration.ofNanos(System.nanoTime() - started);
        } finally {
            redisProcess().command("CLIENT", "UNPAUSE");
        }

        assertThat(took).as("time the lease thread spent in extend() while Redis was paused for %d ms", PAUSE_MS)
                .isLessThan(Duration.ofMillis(PAUSE_MS / 2));
    }
}
