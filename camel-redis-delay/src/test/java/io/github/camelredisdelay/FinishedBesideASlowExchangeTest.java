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
import org.junit.jupiter.api.Test;
import org.redisson.api.RStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A reader thread routes a fetched batch one message after another, and a finished message's acknowledgement waits to
 * share the next read's round trip; but not for the whole batch: once the exchange after it ended, what finished before
 * is acknowledged, while the rest of the batch is still routed. A hung exchange further on must not keep them
 * unacknowledged: a crash meanwhile would deliver them again.
 */
class FinishedBesideASlowExchangeTest extends RedisDelayTestSupport {

    @Test
    void finishedMessagesAreAcknowledgedWhileALaterOneOfTheirBatchStillRuns() throws Exception {
        var producer = startContext().createProducerTemplate();
        RStream<String, String> ready = redis().getStream(key("jobs", "ready"));
        List<String> bodies = List.of("fast", "slow", "hung");
        for (int i = 0; i < bodies.size(); i++) {
            producer.sendBodyAndHeader("redis-delay:jobs", bodies.get(i), RedisDelayConstants.MESSAGE_ID, bodies.get(i));
            int sent = i + 1;
            // one after another, so the stream holds them in this order
            await().atMost(Duration.ofSeconds(5)).until(() -> ready.size() == sent);
        }
        CountDownLatch hungStarted = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);

        // one reader thread, which fetches the three in one read and routes them in the stream's order
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs?visibilityTimeout=30s").process(e -> {
                    switch (e.getMessage().getBody(String.class)) {
                        // longer than an acknowledgement lingers for a read to carry it (20 ms)
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
        try {
            assertThat(hungStarted.await(10, TimeUnit.SECONDS)).as("the hung exchange began").isTrue();

            await("fast and slow acknowledged while hung runs").atMost(Duration.ofSeconds(5))
                    .until(() -> ready.getPendingInfo(QueueKeys.GROUP).getTotal() == 1);
            assertThat(redis().getMap(key("jobs", "msg")).keySet()).containsExactly("hung");
            assertThat(release.getCount()).as("hung still running").isEqualTo(1);
        } finally {
            release.countDown();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> redis().getMap(key("jobs", "msg")).isEmpty());
    }
}
