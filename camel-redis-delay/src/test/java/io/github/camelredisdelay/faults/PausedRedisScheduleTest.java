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

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.RedisDelayConstants;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Redis holds writes for longer than the client waits for the reply to a schedule's script call, but not as long as the
 * client waits for that call and its retry: the client gives the first attempt up and sends the script again, and Redis
 * runs both once the pause ends, answering the second.
 */
class PausedRedisScheduleTest extends FaultTestSupport {

    /**
     * Longer than the client waits for one attempt (3 s), shorter than for the attempt and its retry (3 s, 200 ms, 3
     * s).
     */
    private static final long RETRIED_PAUSE_MS = 4_800;

    @ParameterizedTest
    @ValueSource(strings = { "keep", "fail" })
    void aScheduleWhoseScriptTheClientSentTwiceIsReportedStoredNotADuplicateOfItself(String onDuplicate) throws Exception {
        RedisServerProcess server = redisProcess();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:schedule").to("redis-delay:twice?delay=1h&onDuplicate=" + onDuplicate);
            }
        });
        // the endpoint's first call (its shard check) is over before the pause
        context.createProducerTemplate().sendBody("direct:schedule", "warm-up");

        server.command("CLIENT", "PAUSE", String.valueOf(RETRIED_PAUSE_MS), "WRITE");
        CompletableFuture<Exchange> sent = context.createProducerTemplate().asyncSend("direct:schedule",
                exchange -> exchange.getMessage().setBody("m1"));
        Exchange exchange = sent.get(RETRIED_PAUSE_MS + 20_000, TimeUnit.MILLISECONDS);

        assertThat(exchange.getException()).as("the schedule's failure").isNull();
        String id = exchange.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID, String.class);
        assertThat(redis().getMap(key("twice", "msg")).containsKey(id)).as("m1 stored under " + id).isTrue();
        assertThat(exchange.getMessage().getHeader(RedisDelayConstants.DUPLICATE, Boolean.class))
                .as("m1, stored by this very exchange, reported as a duplicate").isFalse();
        assertThat(exchange.getMessage().getHeader(RedisDelayConstants.SCHEDULED_FOR, Long.class)).isNotNull();
    }
}
