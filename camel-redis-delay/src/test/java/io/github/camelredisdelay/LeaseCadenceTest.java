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
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.github.camelredisdelay.internal.QueueKeys;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.redisson.api.RStream;
import org.redisson.api.stream.PendingEntry;
import org.redisson.api.stream.StreamMessageId;
import org.redisson.api.stream.StreamReadGroupArgs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The cadences of a consumer's lease timer and of its looks for expired leases, measured against the visibility
 * timeout: a running exchange's lease is extended every third of it, so it is never idle long enough for another
 * consumer to take it over; and a lease that expired is looked for every half of it, so a message whose consumer died
 * is delivered again soon after its lease ran out, not several visibility timeouts later.
 */
class LeaseCadenceTest extends RedisDelayTestSupport {

    private static final long VISIBILITY_MS = 2000;

    @Test
    void aRunningExchangesLeaseIsNeverLeftIdleForMostOfTheVisibilityTimeout() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        var producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs?visibilityTimeout=" + VISIBILITY_MS).process(e -> {
                    started.countDown();
                    release.await(30, TimeUnit.SECONDS);
                });
            }
        }).createProducerTemplate();
        try {
            producer.sendBody("redis-delay:jobs", "slow job");
            assertThat(started.await(10, TimeUnit.SECONDS)).as("the exchange began").isTrue();
            RStream<String, String> ready = redis().getStream(key("jobs", "ready"));

            // extended every 666 ms: idle for that and a round trip at most, never three quarters of the 2000 ms
            // after which the lease counts as expired; two visibility timeouts of watching span six extensions
            AtomicLong longestIdle = new AtomicLong();
            await("two visibility timeouts of looks").during(Duration.ofMillis(2 * VISIBILITY_MS))
                    .atMost(Duration.ofMillis(2 * VISIBILITY_MS + 2000)).pollInterval(Duration.ofMillis(25))
                    .until(() -> longestIdle.accumulateAndGet(idleMillis(ready), Math::max) >= 0);

            assertThat(longestIdle.get()).as("longest idle time of the lease, ms").isLessThan(VISIBILITY_MS * 3 / 4);
        } finally {
            release.countDown();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> redis().getMap(key("jobs", "msg")).isEmpty());
    }

    @Test
    void aMessageWhoseConsumerDiedIsTakenOverWithinHalfAVisibilityTimeoutOfItsLeaseExpiring() throws Exception {
        List<Long> deliveredNanos = new CopyOnWriteArrayList<>();
        List<Integer> deliveryCounts = new CopyOnWriteArrayList<>();
        var producer = startContext().createProducerTemplate();
        producer.sendBody("redis-delay:jobs", "job");
        RStream<String, String> ready = redis().getStream(key("jobs", "ready"));
        await().atMost(Duration.ofSeconds(5)).until(() -> ready.size() == 1);
        // a consumer that reads the message and dies before acknowledging it
        assertThat(ready.readGroup(QueueKeys.GROUP, "crashed-consumer", StreamReadGroupArgs.neverDelivered().count(1)))
                .hasSize(1);
        long takenNanos = System.nanoTime();

        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs?visibilityTimeout=" + VISIBILITY_MS).process(e -> {
                    deliveredNanos.add(System.nanoTime());
                    deliveryCounts.add(e.getMessage().getHeader(RedisDelayConstants.DELIVERY_COUNT, Integer.class));
                });
            }
        });

        await().atMost(Duration.ofSeconds(20)).until(() -> deliveredNanos.size() == 1);
        long afterMs = TimeUnit.NANOSECONDS.toMillis(deliveredNanos.get(0) - takenNanos);
        // expired 2 s after the crashed read; looked for every 1 s (and after each idle wait of at most 1 s): taken
        // over by 3 s and a few round trips; looking every few visibility timeouts would take 8 s or more
        assertThat(afterMs).as("ms from the crashed read to the delivery by the live consumer")
                .isBetween(VISIBILITY_MS - 100, VISIBILITY_MS + 3500);
        assertThat(deliveryCounts).containsExactly(2);
    }

    /** How long the one pending entry of the ready stream has been idle, in ms; 0 once none is pending. */
    private static long idleMillis(RStream<String, String> ready) {
        List<PendingEntry> pending = ready.listPending(QueueKeys.GROUP, StreamMessageId.MIN, StreamMessageId.MAX, 10);
        return pending.stream().mapToLong(PendingEntry::getIdleTime).max().orElse(0);
    }
}
