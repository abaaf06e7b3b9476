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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.ShutdownRunningTask;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.support.service.ServiceSupport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A route's {@code shutdownRunningTask} decides what a consumer stopped or suspended by Camel's shutdown strategy does
 * with the rest of a batch it fetched, as for Camel's batch consumers: with the default {@code CompleteCurrentTaskOnly}
 * only the exchange under way completes and the rest is handed back at once, its delivery uncounted, for another node
 * to take; with {@code CompleteAllTasks} the whole batch is routed before the stop.
 */
@CamelSide
class ShutdownRunningTaskTest extends RedisDelayTestSupport {

    private static final List<String> BATCH = List.of("job-1", "job-2", "job-3", "job-4", "job-5");

    private final List<String> routedByStoppingNode = new CopyOnWriteArrayList<>();
    private final Map<String, Integer> deliveryCountsOnOtherNode = new ConcurrentHashMap<>();

    @ParameterizedTest
    @ValueSource(strings = { "blocking", "polling" })
    void aStopCompletesTheCurrentExchangeOnlyAndHandsTheRestOfTheBatchBackAtOnce(String consumerType) throws Exception {
        CamelContext stopping = nodeRoutingTheFirstOfABatch(consumerType, null);

        stopping.getRouteController().stopRoute("jobs", 20, TimeUnit.SECONDS);

        assertThat(routedByStoppingNode).as("only the exchange under way completes (Camel's CompleteCurrentTaskOnly)")
                .containsExactly("job-1");
        startOtherNode(consumerType);
        // the four handed back have no lease to wait out (60 s): another node takes them within moments
        await().atMost(Duration.ofSeconds(10)).until(() -> deliveryCountsOnOtherNode.size() == 4);
        assertThat(deliveryCountsOnOtherNode)
                .as("the rest of the batch, never routed, is delivered as for the first time")
                .isEqualTo(Map.of("job-2", 1, "job-3", 1, "job-4", 1, "job-5", 1));
        await().atMost(Duration.ofSeconds(10)).until(() -> queueIsEmpty(stopping));
    }

    @ParameterizedTest
    @ValueSource(strings = { "blocking", "polling" })
    void aStopOfARouteThatCompletesAllTasksRoutesTheWholeBatchFirst(String consumerType) throws Exception {
        CamelContext stopping = nodeRoutingTheFirstOfABatch(consumerType, ShutdownRunningTask.CompleteAllTasks);

        stopping.getRouteController().stopRoute("jobs", 20, TimeUnit.SECONDS);

        assertThat(routedByStoppingNode).containsExactlyElementsOf(BATCH);
        await().atMost(Duration.ofSeconds(10)).until(() -> queueIsEmpty(stopping));
    }

    @ParameterizedTest
    @ValueSource(strings = { "blocking", "polling" })
    void aSuspensionByTheShutdownStrategyHandsTheRestOfTheBatchBackToo(String consumerType) throws Exception {
        CamelContext suspending = nodeRoutingTheFirstOfABatch(consumerType, null);

        suspending.getRouteController().suspendRoute("jobs", 20, TimeUnit.SECONDS);

        assertThat(routedByStoppingNode).containsExactly("job-1");
        CamelContext other = startOtherNode(consumerType);
        await().atMost(Duration.ofSeconds(10)).until(() -> deliveryCountsOnOtherNode.size() == 4);
        assertThat(deliveryCountsOnOtherNode).containsOnlyKeys("job-2", "job-3", "job-4", "job-5");

        // resumed, it routes again
        suspending.getRouteController().resumeRoute("jobs");
        other.getRouteController().stopRoute("other");
        suspending.createProducerTemplate().sendBody("redis-delay:jobs?operation=scheduleBatch",
                List.of("job-6", "job-7", "job-8"));
        await().atMost(Duration.ofSeconds(10)).until(() -> routedByStoppingNode.size() == 4);
        assertThat(routedByStoppingNode).containsExactlyInAnyOrder("job-1", "job-6", "job-7", "job-8");
    }

    private static String uri(String consumerType) {
        return "redis-delay:jobs?maxMessagesPerPoll=5&visibilityTimeout=60s&consumerType=" + consumerType;
    }

    /**
     * A node whose route "jobs" ({@link #routeWhoseFirstExchangeEndsOnceSuspended}) fetched {@link #BATCH} in one read
     * and routes its first message.
     */
    private CamelContext nodeRoutingTheFirstOfABatch(String consumerType, ShutdownRunningTask task) throws Exception {
        CamelContext node = startContext(routeWhoseFirstExchangeEndsOnceSuspended(uri(consumerType), task));
        node.createProducerTemplate().sendBody("redis-delay:jobs?operation=scheduleBatch", BATCH);
        await().atMost(Duration.ofSeconds(10)).until(() -> routedByStoppingNode.size() == 1);
        return node;
    }

    /**
     * Route "jobs" from {@code uri} (with the given {@code shutdownRunningTask}, or Camel's default), recording what it
     * routes; its first exchange waits until the consumer is suspended (the shutdown strategy's first step), then ends
     * normally, while the rest of its batch is still to route.
     */
    private RouteBuilder routeWhoseFirstExchangeEndsOnceSuspended(String uri, ShutdownRunningTask task) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                var route = from(uri).routeId("jobs");
                if (task != null) {
                    route.shutdownRunningTask(task);
                }
                route.process(e -> {
                    routedByStoppingNode.add(e.getMessage().getBody(String.class));
                    if (routedByStoppingNode.size() == 1) {
                        ServiceSupport consumer = (ServiceSupport) e.getContext().getRoute("jobs").getConsumer();
                        await().pollInterval(Duration.ofMillis(10)).atMost(Duration.ofSeconds(10))
                                .until(() -> consumer.isSuspendingOrSuspended() || consumer.isStoppingOrStopped());
                    }
                });
            }
        };
    }

    /** Another node consuming the queue, which records the delivery count of what it routes. */
    private CamelContext startOtherNode(String consumerType) throws Exception {
        return startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(consumerType)).routeId("other")
                        .process(e -> deliveryCountsOnOtherNode.put(e.getMessage().getBody(String.class),
                                e.getMessage().getHeader(RedisDelayConstants.DELIVERY_COUNT, Integer.class)));
            }
        });
    }

    @SuppressWarnings("unchecked")
    private static boolean queueIsEmpty(CamelContext context) {
        Map<String, Object> stats = context.createProducerTemplate()
                .requestBody("redis-delay:jobs?operation=stats", null, Map.class);
        return Long.valueOf(0).equals(stats.get("scheduled")) && Long.valueOf(0).equals(stats.get("ready"))
                && Long.valueOf(0).equals(stats.get("inFlight"));
    }
}
