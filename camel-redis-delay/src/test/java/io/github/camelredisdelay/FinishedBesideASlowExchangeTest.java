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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.internal.QueueKeys;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A reader thread routes a fetched batch one message after another, and a finished message's acknowledgement waits to
 * share the next read's round trip; but not for the whole batch: what finished is acknowledged once the exchange after
 * it ended, or at the latest with the next extension of the leases, while the rest of the batch is still routed. A hung
 * exchange further on must not keep them unacknowledged: a crash meanwhile would deliver them again.
 */
class FinishedBesideASlowExchangeTest extends RedisDelayTestSupport {

    private final CountDownLatch hungStarted = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void releaseTheHungExchange() {
        release.countDown();
    }

    @Test
    void finishedMessagesAreAcknowledgedWhileALaterOneOfTheirBatchStillRuns() throws Exception {
        routeInOneBatch(List.of("fast", "slow", "hung"), "visibilityTimeout=30s");

        await("fast and slow acknowledged while hung runs").atMost(Duration.ofSeconds(5))
                .until(() -> pendingCount() == 1);
        assertThat(redis().getMap(key("jobs", "msg")).keySet()).containsExactly("hung");
        assertThat(release.getCount()).as("hung still running").isEqualTo(1);
        release.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> redis().getMap(key("jobs", "msg")).isEmpty());
    }

    @Test
    void aMessageThatFinishedRightBeforeAHungExchangeIsAcknowledgedWithTheNextLeaseExtension() throws Exception {
        // the leases are extended every second
        routeInOneBatch(List.of("fast", "hung"), "visibilityTimeout=3s");

        await("fast acknowledged while hung runs").atMost(Duration.ofSeconds(5)).until(() -> pendingCount() == 1);
        assertThat(redis().getMap(key("jobs", "msg")).keySet()).containsExactly("hung");
        assertThat(release.getCount()).as("hung still running").isEqualTo(1);
    }

    /**
     * Schedules {@code bodies} (each its own id) and routes them with one reader thread, which fetches them in one read
     * and routes them in that order: "slow" takes 200 ms, longer than an acknowledgement lingers for a read to carry it
     * (20 ms), and "hung" runs until {@link #release}.
     */
    private void routeInOneBatch(List<String> bodies, String options) throws Exception {
        var producer = startContext().createProducerTemplate();
        RStream<String, String> ready = redis().getStream(key("jobs", "ready"));
        for (int i = 0; i < bodies.size(); i++) {
            producer.sendBodyAndHeader("redis-delay:jobs", bodies.get(i), RedisDelayConstants.MESSAGE_ID, bodies.get(i));
            int sent = i + 1;
            // one after another, so the stream holds them in this order
            await().atMost(Duration.ofSeconds(5)).until(() -> ready.size() == sent);
        }
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs?" + options).process(e -> {
                    switch (e.getMessage().getBody(String.class)) {
                        case "slow" -> new CountDownLatch(1).await(200, TimeUnit.MILLISECONDS);
                        case "hung" -> {
                            hungStarted.countDown();
                            release.await(30, TimeUnit.SECONDS);
                        }
                        default -> {
                        }
                    }
                });
            }
        });
        assertThat(hungStarted.await(10, TimeUnit.SECONDS)).as("the hung exchange began").isTrue();
    }

    private long pendingCount() {
        return redis().getStream(key("jobs", "ready")).getPendingInfo(QueueKeys.GROUP).getTotal();
    }
}
