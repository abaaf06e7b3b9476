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

import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.NeedsRedisProcess;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.engine.DefaultShutdownStrategy;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An {@code onDuplicate=replace} of a message that is ready or in flight stores the new version beside it, and the old
 * one is delivered (the component page's table of {@code onDuplicate}), also when a cancel removed the replacement. A
 * message a consumer fetched in a batch but had not routed yet is in flight: when that consumer hands it back unrouted
 * (behind a slow exchange for a visibility timeout, or as it stops), the consumer that takes it over delivers it,
 * whatever version of its id is stored now.
 */
@NeedsRedisProcess
class ReplacedWhileHandedBackTest extends RedisDelayTestSupport {

    private final List<String> delivered = new CopyOnWriteArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);

    private CamelContext nodeWithAStoppedRoute(String options) throws Exception {
        return startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from("redis-delay:orders?concurrentConsumers=1&maxMessagesPerPoll=10&" + options).routeId("consumer")
                        .autoStartup(false).process(e -> {
                            String body = e.getMessage().getBody(String.class);
                            delivered.add(body);
                            if (body.equals("slow")) {
                                release.await(20, TimeUnit.SECONDS);
                            }
                        });
            }
        });
    }

    /** "slow" and the first version of order-1 ready, then the route started: one batch fetches both. */
    private ProducerTemplate bothFetchedInOneBatch(CamelContext context) throws Exception {
        ProducerTemplate producer = context.createProducerTemplate();
        producer.sendBodyAndHeader("redis-delay:orders", "slow", RedisDelayConstants.MESSAGE_ID, "slow-1");
        producer.sendBodyAndHeader("redis-delay:orders", "order-1 v1", RedisDelayConstants.MESSAGE_ID, "order-1");
        await().atMost(Duration.ofSeconds(5)).until(() -> count(producer, "ready") == 2);
        context.getRouteController().startRoute("consumer");
        await().atMost(Duration.ofSeconds(5)).until(() -> delivered.contains("slow"));
        assertThat(redis().getStream(key("orders", "ready")).getPendingInfo("consumers").getTotal())
                .as("both fetched in one batch: pending in the consumer group").isEqualTo(2);
        return producer;
    }

    private static long count(ProducerTemplate producer, String name) {
        Map<?, ?> stats = (Map<?, ?>) producer.requestBody("redis-delay:orders?operation=stats", (Object) null);
        return ((Number) stats.get(name)).longValue();
    }

    private static void replaceAnHourAhead(ProducerTemplate producer) {
        Exchange replaced = producer.send("redis-delay:orders?onDuplicate=replace&delay=1h", e -> {
            e.getMessage().setBody("order-1 v2");
            e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, "order-1");
        });
        assertThat(replaced.getException()).isNull();
        assertThat(replaced.getMessage().getHeader(RedisDelayConstants.DUPLICATE)).isEqualTo(false);
    }

    /** One batch fetched "slow" and order-1's first version; order-1 then replaced by a version due in an hour. */
    private CamelContext replacedWhileFetched(String options) throws Exception {
        CamelContext context = nodeWithAStoppedRoute(options);
        replaceAnHourAhead(bothFetchedInOneBatch(context));
        return context;
    }

    /** Lets the slow exchange end once the rest of its batch waited past the visibility timeout and was handed back. */
    private void slowExchangeEndsAfterAHandBack() {
        try {
            await("order-1 handed back behind the slow exchange").atMost(Duration.ofSeconds(10))
                    .until(() -> redis().getStream(key("orders", "ready")).getPendingInfo("consumers")
                            .getConsumerNames().getOrDefault("handed-back", 0L) == 1);
        } finally {
            release.countDown();
        }
    }

    private void assertOldVersionDelivered() {
        await("the replaced version, in flight when it was replaced, delivered").atMost(Duration.ofSeconds(10))
                .until(() -> delivered.contains("order-1 v1"));
    }

    @Test
    void aVersionReplacedWhileItWaitsBehindASlowExchangeIsStillDelivered() throws Exception {
        replacedWhileFetched("visibilityTimeout=1s");

        slowExchangeEndsAfterAHandBack();

        assertOldVersionDelivered();
    }

    @Test
    void aVersionReplacedWhileInAFetchedBatchIsStillDeliveredAfterTheConsumerStops() throws Exception {
        CamelContext context = replacedWhileFetched("visibilityTimeout=30s");
        // once the stop waits for the slow exchange, that exchange completes and the rest of its batch is handed back
        // (CompleteCurrentTaskOnly), well within the shutdown timeout, after which the stop would cut the batch off
        LogLines shutdown = LogLines.ofDebug(DefaultShutdownStrategy.class);
        Thread releaser = new Thread(() -> {
            try {
                await("the stop waiting for the slow exchange").atMost(Duration.ofSeconds(5))
                        .until(() -> shutdown.lines().stream().anyMatch(line -> line.contains("Waiting as there are still")));
            } finally {
                release.countDown();
                shutdown.close();
            }
        });
        releaser.start();
        context.getRouteController().stopRoute("consumer");
        releaser.join();
        context.getRouteController().startRoute("consumer");

        assertOldVersionDelivered();
    }

    @Test
    void aVersionReplacedWhileItWaitsBehindASlowExchangeIsStillDeliveredWhenTheReplacementIsCancelled() throws Exception {
        CamelContext context = replacedWhileFetched("visibilityTimeout=1s");
        // the component page: "a cancel of the scheduled replacement answers true without stopping" the older version
        Object cancelled = context.createProducerTemplate().requestBodyAndHeader("redis-delay:orders?operation=cancel", null,
                RedisDelayConstants.MESSAGE_ID, "order-1");
        assertThat(cancelled).isEqualTo(true);

        slowExchangeEndsAfterAHandBack();

        assertOldVersionDelivered();
    }
}
