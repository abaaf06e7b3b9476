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
import java.util.concurrent.atomic.AtomicInteger;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A delivery handed over to a {@code seda:} copy keeps its lease until the copy completes, and is acknowledged then,
 * also when its consumer route stops, restarts, or is removed and added again (a reload) meanwhile: a copy that runs on
 * for longer than {@code visibilityTimeout} must not lose its lease to a second consumer while it still works.
 */
@CamelSide
class HandedOverCopyAfterStopTest extends RedisDelayTestSupport {

    private static final long WORK_MILLIS = 4_000;

    private final List<String> started = new CopyOnWriteArrayList<>();
    /** Copies at work right now. */
    private final AtomicInteger working = new AtomicInteger();

    private static RouteBuilder jobsRoute(String uri) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).routeId("jobs").to("seda:work");
            }
        };
    }

    private RouteBuilder workRoute() {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from("seda:work?concurrentConsumers=2").routeId("work").process(e -> {
                    started.add(e.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID, String.class) + " delivery "
                                + e.getMessage().getHeader(RedisDelayConstants.DELIVERY_COUNT) + ", copies already at work: "
                                + working.getAndIncrement());
                    try {
                        new CountDownLatch(1).await(WORK_MILLIS, TimeUnit.MILLISECONDS);
                    } finally {
                        working.decrementAndGet();
                    }
                });
            }
        };
    }

    @Test
    void copyStillRunningWhenItsRouteIsRestartedIsNotDeliveredASecondTime() throws Exception {
        CamelContext node = startContext(jobsRoute("redis-delay:jobs?visibilityTimeout=1000"), workRoute());
        node.createProducerTemplate().sendBody("redis-delay:jobs", "job");
        await().atMost(Duration.ofSeconds(5)).until(() -> started.size() == 1);

        // a route restart (a reload, the route controller): the handed-over copy is still at work
        long stopping = System.nanoTime();
        node.getRouteController().stopRoute("jobs");
        node.getRouteController().startRoute("jobs");
        assertThat(Duration.ofNanos(System.nanoTime() - stopping)).as("the restart did not wait for the copy")
                .isLessThan(Duration.ofMillis(WORK_MILLIS / 2));

        // the copy works 4 s, four visibility timeouts, and is acknowledged when it ends
        await().atMost(Duration.ofSeconds(15)).pollDelay(Duration.ofMillis(WORK_MILLIS))
                .until(() -> redis().getMap(key("jobs", "msg")).isEmpty());
        assertThat(started).as("deliveries of the one message, while its first copy still ran").hasSize(1);
    }

    @Test
    void copyStillRunningWhenItsRouteStopsIsNotTakenOverByAnotherNode() throws Exception {
        String uri = "redis-delay:jobs?visibilityTimeout=1000";
        CamelContext node = startContext(jobsRoute(uri), workRoute());
        node.createProducerTemplate().sendBody("redis-delay:jobs", "job");
        await().atMost(Duration.ofSeconds(5)).until(() -> started.size() == 1);
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).process(e -> started.add("other node: "
                                                   + e.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID, String.class)
                                                   + " delivery "
                                                   + e.getMessage().getHeader(RedisDelayConstants.DELIVERY_COUNT)
                                                   + ", copies at work on the first node: " + working.get()));
            }
        });

        long stopping = System.nanoTime();
        node.getRouteController().stopRoute("jobs");
        assertThat(Duration.ofNanos(System.nanoTime() - stopping)).as("the stop did not wait for the copy")
                .isLessThan(Duration.ofMillis(WORK_MILLIS / 2));

        await().atMost(Duration.ofSeconds(15)).pollDelay(Duration.ofMillis(WORK_MILLIS))
                .until(() -> redis().getMap(key("jobs", "msg")).isEmpty());
        assertThat(started).as("deliveries of the one message, while its first copy still ran").hasSize(1);
    }

    @Test
    void copyStillRunningWhenItsRouteIsRemovedAndAddedAgainIsNotDeliveredASecondTime() throws Exception {
        String uri = "redis-delay:jobs?visibilityTimeout=1000";
        // the producer is another node: the consumer's endpoint is the only redis-delay endpoint of this context, whose
        // removal would release the connection the copy's lease is kept on
        startContext().createProducerTemplate().sendBody("redis-delay:jobs", "job");
        CamelContext node = startContext(jobsRoute(uri), workRoute());
        await().atMost(Duration.ofSeconds(5)).until(() -> started.size() == 1);

        // a route reload: the route is removed and added again while its handed-over copy is still at work
        node.getRouteController().stopRoute("jobs");
        assertThat(node.removeRoute("jobs")).isTrue();
        node.addRoutes(jobsRoute(uri));

        // the copy works 4 s, four visibility timeouts, and is acknowledged when it ends
        await().atMost(Duration.ofSeconds(15)).pollDelay(Duration.ofMillis(WORK_MILLIS))
                .until(() -> redis().getMap(key("jobs", "msg")).isEmpty() && working.get() == 0);
        assertThat(started).as("deliveries of the one message, while its first copy still ran").hasSize(1);
    }
}
