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

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.RedisDelayConstants;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.redisson.api.RMap;
import org.redisson.client.RedisTimeoutException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Schedules queued behind a script call that Redis does not answer fail with it, unsent. Such a schedule is certainly
 * not stored, while one the call carried may be (Redis runs it once it answers again); the user who decides whether to
 * send again must be told which. With the call's own error text on every exchange, the two cannot be told apart.
 */
class UnsentScheduleErrorTest extends FaultTestSupport {

    private static final int EXCHANGES = 20;
    /** Longer than the client waits for a call and its retry (3 s, 200 ms, 3 s). */
    private static final long PAUSE_MS = 10_000;

    @Test
    void aScheduleFailedUnsentSaysItIsNotStoredNamingTheQueueAndTheCause() throws Exception {
        RedisServerProcess server = redisProcess();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:schedule").to("redis-delay:silent?delay=1h");
            }
        });
        ProducerTemplate producer = context.createProducerTemplate();
        // the endpoint's first call (its shard check) is over before the pause
        producer.sendBody("direct:schedule", "warm-up");

        List<CompletableFuture<Exchange>> sent = new ArrayList<>();
        server.command("CLIENT", "PAUSE", String.valueOf(PAUSE_MS), "WRITE");
        try {
            // the first schedule's call (and perhaps a second one beside it) waits out the pause; the others queue
            for (int i = 0; i < EXCHANGES; i++) {
                String id = "order-" + i;
                sent.add(producer.asyncSend("direct:schedule", exchange -> {
                    exchange.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, id);
                    exchange.getMessage().setBody(id);
                }));
            }
            List<Exchange> failed = new ArrayList<>();
            for (CompletableFuture<Exchange> exchange : sent) {
                failed.add(exchange.get(PAUSE_MS + 20_000, TimeUnit.MILLISECONDS));
            }
            server.command("CLIENT", "UNPAUSE");
            RMap<String, Object> stored = redis().getMap(key("silent", "msg"));
            // a write after the paused ones: Redis has run every call the client sent
            server.command("SET", keyPrefix + ":after-the-pause", "1");

            int unsent = 0;
            for (Exchange exchange : failed) {
                String id = exchange.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID, String.class);
                Exception failure = exchange.getException();
                assertThat(failure).as("the failure of %s", id).isInstanceOf(RedisTimeoutException.class);
                if (failure.getMessage().contains("not stored")) {
                    unsent++;
                    assertThat(failure.getMessage()).as("the failure of %s", id)
                            .contains("message " + id).contains("queue silent").contains("not sent");
                    assertThat(failure).as("the failure of %s", id).hasCauseInstanceOf(RedisTimeoutException.class);
                    assertThat(stored.containsKey(id)).as("%s, said not stored, is stored", id).isFalse();
                }
            }
            // at most two calls are under way: the first carries one schedule, a second one those queued when it left
            assertThat(unsent).as("exchanges whose schedule queued behind the unanswered calls, told it is not stored")
                    .isPositive();
        } finally {
            server.command("CLIENT", "UNPAUSE");
        }
    }
}
