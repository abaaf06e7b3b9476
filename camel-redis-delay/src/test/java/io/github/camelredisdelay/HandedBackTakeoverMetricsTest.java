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
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.camel.CamelContext;
import org.apache.camel.Consumer;
import org.apache.camel.StatefulService;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code camel.redis.delay.reclaimed} means "leases taken over from a consumer that stopped answering (crash, kill,
 * long GC pause): those messages are delivered a second time", and its alert says a consumer crashed or hung. The rest
 * of a batch a graceful stop hands back (never routed, its delivery uncounted) is no such takeover.
 */
@CamelSide
class HandedBackTakeoverMetricsTest extends RedisDelayTestSupport {

    private final List<String> routed = new CopyOnWriteArrayList<>();

    @Test
    void takingOverTheRestOfABatchAStopHandedBackIsNotCountedAsReclaimed() throws Exception {
        String uri = "redis-delay:jobs?maxMessagesPerPoll=5&visibilityTimeout=1s";
        CamelContext stopping = startContext(routeOutlastingItsStop(uri));
        stopping.createProducerTemplate().sendBody("redis-delay:jobs?operation=scheduleBatch&delay=300",
                List.of("job-1", "job-2", "job-3", "job-4", "job-5"));
        await().atMost(Duration.ofSeconds(10)).until(() -> routed.size() == 1);
        stopping.getRouteController().stopRoute("jobs", 1, TimeUnit.SECONDS);

        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        CamelContext taking = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).process(e -> routed.add(e.getMessage().getBody(String.class)));
            }
        });
        taking.getRegistry().bind("metricsRegistry", registry);
        taking.start();

        // all five reach a route again: the one the stop cut off (its lease expired) and the four handed back
        await().atMost(Duration.ofSeconds(15)).until(() -> routed.size() == 6);
        double reclaimed = registry.get("camel.redis.delay.reclaimed").tag("queue", "jobs").counter().count();
        assertThat(reclaimed)
                .as("only the one message whose exchange the stop cut off was delivered a second time; the four handed"
                    + " back were never routed before, so the RedisDelayLeaseTakeovers alert should not count them")
                .isEqualTo(1.0);
    }

    @Test
    void messagesHandedBackByAStoppedRouteCountAsReadyAndOverdueWhileNoConsumerTakesThemOver() throws Exception {
        String uri = "redis-delay:jobs?maxMessagesPerPoll=5";
        CamelContext node = startContext(routeOutlastingItsStop(uri), new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:stats").to("redis-delay:jobs?operation=stats");
            }
        });
        node.createProducerTemplate().sendBody("redis-delay:jobs?operation=scheduleBatch",
                List.of("job-1", "job-2", "job-3", "job-4", "job-5"));
        await().atMost(Duration.ofSeconds(10)).until(() -> routed.size() == 1);
        // the operator stops the only consumer: the four it never routed are handed back and wait for a consumer
        node.getRouteController().stopRoute("jobs", 1, TimeUnit.SECONDS);
        await().pollDelay(Duration.ofSeconds(4)).atMost(Duration.ofSeconds(5)).until(() -> true);

        @SuppressWarnings("unchecked")
        Map<String, Object> stats = node.createProducerTemplate().requestBody("direct:stats", null, Map.class);
        assertThat(routed).hasSize(1);
        assertThat((Long) stats.get("oldestOverdueMs"))
                .as("four due messages have waited over 4 s for a consumer (stats: %s)", stats)
                .isGreaterThanOrEqualTo(3_000L);
        assertThat(stats).as("the four handed back wait for a consumer, as ready ones do; the one the stop cut off"
                             + " stays leased until its lease expires")
                .containsEntry("ready", 4L).containsEntry("inFlight", 1L);
    }

    /**
     * Route "jobs" from {@code uri}, whose first exchange outlasts a stop's timeout of 1 s and runs on until the stop
     * interrupts its thread (2 s later), so that it is always cut off: the rest of its batch is never routed and is
     * handed back. (An exchange that ended by itself just before that interrupt would be acknowledged instead.)
     */
    private RouteBuilder routeOutlastingItsStop(String uri) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).routeId("jobs").process(e -> {
                    routed.add(e.getMessage().getBody(String.class));
                    Consumer consumer = e.getContext().getRoute("jobs").getConsumer();
                    await().pollInterval(Duration.ofMillis(10)).atMost(Duration.ofSeconds(10))
                            .until(() -> ((StatefulService) consumer).isStopping()
                                    || ((StatefulService) consumer).isStopped());
                    new CountDownLatch(1).await(30, TimeUnit.SECONDS);
                });
            }
        };
    }
}
