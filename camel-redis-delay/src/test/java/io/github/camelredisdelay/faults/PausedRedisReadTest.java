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
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.RedisDelayConstants;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Redis holds every write for longer than the client waits for a reply ({@code CLIENT PAUSE ... WRITE}, as a
 * {@code FAILOVER} or an operator does): the consumer's reads, writes themselves ({@code XREADGROUP}), run once the
 * pause ends, after the client gave up on them.
 */
class PausedRedisReadTest extends FaultTestSupport {

    /** Longer than a read with its retry waits (the client's 3 s timeout, one retry 200 ms later). */
    private static final long PAUSE_MS = 8_000;

    @Test
    void aMessageThatFellDueWhileRedisHeldWritesReachesTheRouteSoonAfterNotAfterTheVisibilityTimeout() throws Exception {
        RedisServerProcess server = redisProcess();
        List<String> routed = new CopyOnWriteArrayList<>();
        List<Integer> deliveryCounts = new CopyOnWriteArrayList<>();
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:held?visibilityTimeout=60s").routeId("held").process(e -> {
                    routed.add(e.getMessage().getBody(String.class));
                    deliveryCounts.add(e.getMessage().getHeader(RedisDelayConstants.DELIVERY_COUNT, Integer.class));
                });
            }
        }).createProducerTemplate().sendBodyAndHeader("redis-delay:held", "m1", RedisDelayConstants.DELAY, 1_500);

        server.command("CLIENT", "PAUSE", String.valueOf(PAUSE_MS), "WRITE");

        // what the consumer sent during the pause runs when it ends, whether or not the client still waits for it
        await("m1 routed within 12 s of the pause's end").atMost(Duration.ofMillis(PAUSE_MS + 12_000))
                .until(() -> routed.contains("m1"));
        assertThat(routed).containsExactly("m1");
        assertThat(deliveryCounts).as("its first delivery").containsExactly(1);
    }

    @Test
    void aMessageABlockingReadTookWhileRedisHeldWritesReachesTheRouteSoonAfterNotAfterTheVisibilityTimeout()
            throws Exception {
        RedisServerProcess server = redisProcess();
        List<String> routed = new CopyOnWriteArrayList<>();
        List<Integer> deliveryCounts = new CopyOnWriteArrayList<>();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:held?visibilityTimeout=60s").routeId("held").process(e -> {
                    routed.add(e.getMessage().getBody(String.class));
                    deliveryCounts.add(e.getMessage().getHeader(RedisDelayConstants.DELIVERY_COUNT, Integer.class));
                });
            }
        });
        context.getRouteController().suspendRoute("held");
        context.createProducerTemplate().sendBody("redis-delay:held", "m1");
        await("m1 ready").atMost(Duration.ofSeconds(10))
                .until(() -> "1".equals(server.command("XLEN", key("held", "ready"))));

        // m1's ready notice makes the queue busy, so the resumed consumer's first read blocks in Redis (250 ms): the client
        // gives such a read up 3 s after its block as if it found nothing, and Redis runs it, taking m1, when the pause
        // ends; the consumer's next read is answered then
        server.command("CLIENT", "PAUSE", String.valueOf(PAUSE_MS), "WRITE");
        context.getRouteController().resumeRoute("held");

        await("m1 routed within 12 s of the pause's end").atMost(Duration.ofMillis(PAUSE_MS + 12_000))
                .until(() -> routed.contains("m1"));
        assertThat(routed).containsExactly("m1");
        assertThat(deliveryCounts).as("its first delivery").containsExactly(1);
    }
}
