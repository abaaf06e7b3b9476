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
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Redis runs on this machine, so its clock is the JVM's: the clock offset the statistics correct lateness by must be
 * about 0, and the lateness the meters and the stats operation report must be what the route sees.
 */
class LatenessClockOffsetTest extends RedisDelayTestSupport {

    /** Lateness as the route measures it: now minus the due time Redis stored (same clock here). */
    private final List<Long> seen = new CopyOnWriteArrayList<>();

    @Override
    protected boolean usesSharedClient() {
        // the component's own client, as an application configured with an address has it
        return false;
    }

    @Test
    void latenessReportedIsTheLatenessTheRouteSeesWhenRedisSharesTheJvmsClock() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        CamelContext context = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs").process(e -> seen.add(System.currentTimeMillis()
                                                               - e.getMessage().getHeader(
                                                                       RedisDelayConstants.SCHEDULED_FOR, Long.class)));
            }
        });
        context.getRegistry().bind("metricsRegistry", registry);
        context.start();
        ProducerTemplate producer = context.createProducerTemplate();
        for (int i = 0; i < 5; i++) {
            producer.sendBody("redis-delay:jobs?delay=300", "job " + i);
            int expected = i + 1;
            await().atMost(Duration.ofSeconds(10)).until(() -> seen.size() == expected);
        }

        long seenMax = seen.stream().mapToLong(Long::longValue).max().orElseThrow();
        Timer lateness = registry.get("camel.redis.delay.lateness").tag("queue", "jobs").timer();
        double meterMax = lateness.max(TimeUnit.MILLISECONDS);
        RedisDelayEndpoint endpoint = context.getEndpoint("redis-delay:jobs", RedisDelayEndpoint.class);
        long statsMax = endpoint.getLatenessMaxMillis();
        long offset = endpoint.getClockOffsetMillis();
        System.out.println("[lateness] route saw " + seen + ", timer max " + meterMax + " ms, stats max " + statsMax
                           + " ms, clock offset " + offset + " ms");

        // a few ms of error at most (half a round trip); the measurement taken over the client's first connect was
        // off by hundreds
        assertThat(offset).as("Redis' clock minus this JVM's, on one machine").isBetween(-20L, 20L);
        // recorded as each delivery is handed to the route, before the route's own reading of the clock
        assertThat(meterMax).as("the lateness timer's max against what the route saw (%s)", seen)
                .isLessThanOrEqualTo(seenMax + 20.0);
        assertThat(statsMax).as("latenessMaxMs against what the route saw (%s)", seen)
                .isLessThanOrEqualTo(seenMax + 20);
    }
}
