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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.DuplicateMessageException;
import io.github.camelredisdelay.RedisDelayConstants;
import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.CommandStats;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Redis holds writes for longer than the client waits for a reply ({@code CLIENT PAUSE ... WRITE}, as a
 * {@code FAILOVER} does), then runs what it was sent. A schedule under an id the route gives, and a cancel, must not be
 * sent again then: Redis would run both copies, and the second's reply would call the exchange's own stored message a
 * duplicate ({@code onDuplicate=fail} failing, {@code keep} saying nothing was stored) and its own removal a cancel of
 * nothing. Each fails as unanswered instead, and Redis runs it once.
 */
@CamelSide
class LateReplyTest extends FaultTestSupport {

    /** Longer than the client's 3 s response timeout and its retry delay (200 ms), shorter than two attempts. */
    private static final long PAUSE_MS = 4_800;

    @Test
    void aScheduleOrCancelWhoseReplyIsLateFailsAsUnansweredAndRunsOnce() throws Exception {
        ProducerTemplate producer = startContext().createProducerTemplate();
        // connections and scripts in place before the pause
        producer.sendBodyAndHeader("redis-delay:late-fail?delay=1h&onDuplicate=fail", "warm", RedisDelayConstants.MESSAGE_ID,
                "warm");
        producer.sendBodyAndHeader("redis-delay:late-keep?delay=1h", "warm", RedisDelayConstants.MESSAGE_ID, "warm");
        producer.sendBodyAndHeader("redis-delay:late-cancel?delay=1h", "the order", RedisDelayConstants.MESSAGE_ID,
                "order-3");
        producer.sendBodyAndHeader("redis-delay:late-cancel?operation=cancel", null, RedisDelayConstants.MESSAGE_ID,
                "warm");
        Map<String, Long> before = CommandStats.calls(redis());

        redisProcess().command("CLIENT", "PAUSE", String.valueOf(PAUSE_MS), "WRITE");
        CompletableFuture<Exchange> failing = withId(producer, "redis-delay:late-fail?delay=1h&onDuplicate=fail", "order-1");
        CompletableFuture<Exchange> keeping = withId(producer, "redis-delay:late-keep?delay=1h", "order-2");
        CompletableFuture<Exchange> cancel = withId(producer, "redis-delay:late-cancel?operation=cancel", "order-3");
        Exchange failed = failing.get(20, TimeUnit.SECONDS);
        Exchange kept = keeping.get(20, TimeUnit.SECONDS);
        Exchange cancelled = cancel.get(20, TimeUnit.SECONDS);

        for (Exchange unanswered : new Exchange[] { failed, kept, cancelled }) {
            assertThat(unanswered.getException()).as("a reply that came too late says so, whatever Redis did")
                    .isNotNull().isNotInstanceOf(DuplicateMessageException.class)
                    .hasMessageContaining("no reply within");
        }
        // Redis runs what it holds once the pause ends
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                .until(() -> redis().getMap(key("late-fail", "msg")).containsKey("order-1"));
        assertThat(redis().getMap(key("late-keep", "msg")).containsKey("order-2")).as("stored").isTrue();
        assertThat(redis().getMap(key("late-cancel", "msg")).containsKey("order-3")).as("removed").isFalse();
        Map<String, Long> after = CommandStats.calls(redis());
        assertThat(after.get("hsetnx") - before.getOrDefault("hsetnx", 0L)).as("schedules run").isEqualTo(2);
    }

    private static CompletableFuture<Exchange> withId(ProducerTemplate producer, String uri, String id) {
        return producer.asyncSend(uri, exchange -> {
            exchange.getMessage().setBody("the order");
            exchange.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, id);
        });
    }
}
