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

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.AggregationStrategies;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.spi.Synchronization;
import org.apache.camel.support.SynchronizationAdapter;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A delivered exchange that ends elsewhere than the consumer's route: handed to another route through {@code seda:}
 * (Camel hands the exchange's completions over to the copy), or marked for rollback without an exception.
 */
@CamelSide
class ExchangeHandoverTest extends RedisDelayTestSupport {

    private final List<Message> deliveries = new CopyOnWriteArrayList<>();

    @Test
    void messageHandedToASlowSedaRouteKeepsItsLeaseAndIsAcknowledgedWhenThatRouteEnds() throws Exception {
        ProducerTemplate producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders?visibilityTimeout=500ms").to("seda:work");
                from("seda:work").delay(1500).process(e -> deliveries.add(e.getMessage().copy()));
            }
        }).createProducerTemplate();

        producer.sendBodyAndHeader("redis-delay:orders", "order-1", RedisDelayConstants.MESSAGE_ID, "order-1");

        await().atMost(Duration.ofSeconds(10)).until(() -> deliveries.size() == 1);
        await().atMost(Duration.ofSeconds(5)).until(() -> redis().getMap(key("orders", "msg")).isEmpty());
        // a lease taken over after 0.5 s would have delivered it again, and that copy would end within 2 s more
        await().during(Duration.ofMillis(2000)).atMost(Duration.ofSeconds(4)).until(() -> deliveries.size() == 1);
        assertThat(deliveries).singleElement()
                .satisfies(m -> assertThat(m.getHeader(RedisDelayConstants.DELIVERY_COUNT)).isEqualTo(1));
    }

    @Test
    void aCopyThatCompletedAndWasCollectedBeforeTheExchangeSucceededLetsTheMessageBeAcknowledged() throws Exception {
        CountDownLatch copyDone = new CountDownLatch(1);
        ProducerTemplate producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders?visibilityTimeout=1s").process(e -> deliveries.add(e.getMessage().copy()))
                        .to("seda:audit").process(e -> {
                            // the copy completes first; then a slow step, during which the JVM collects garbage (the
                            // copy too) and the lease keeper ticks (every third of the visibility timeout)
                            assertThat(copyDone.await(10, TimeUnit.SECONDS)).isTrue();
                            await().pollInterval(Duration.ofMillis(100)).during(Duration.ofMillis(1500))
                                    .atMost(Duration.ofSeconds(3)).until(ExchangeHandoverTest::collectGarbage);
                        });
                // counted down once the copy's completions ran, the handed-over one (added before it) included
                from("seda:audit").process(e -> e.getExchangeExtension().addOnCompletion(countingDown(copyDone)));
            }
        }).createProducerTemplate();

        producer.sendBodyAndHeader("redis-delay:orders", "order-1", RedisDelayConstants.MESSAGE_ID, "order-1");

        await().atMost(Duration.ofSeconds(10)).until(() -> !deliveries.isEmpty());
        // left unacknowledged, it would be delivered again 1 s (the visibility timeout) after the route ended
        await().during(Duration.ofSeconds(4)).atMost(Duration.ofSeconds(6)).until(() -> deliveries.size() == 1);
        assertThat(redis().getMap(key("orders", "msg")).isEmpty()).as("order-1 acknowledged").isTrue();
    }

    @Test
    void messageHandedToASedaRouteThatEndsWhileTheContextStopsIsAcknowledged() throws Exception {
        CountDownLatch inSeda = new CountDownLatch(1);
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders").to("seda:work");
                from("seda:work").process(e -> inSeda.countDown()).delay(1000)
                        .process(e -> deliveries.add(e.getMessage().copy()));
            }
        });
        node.createProducerTemplate().sendBodyAndHeader("redis-delay:orders", "order-1", RedisDelayConstants.MESSAGE_ID,
                "order-1");
        assertThat(inSeda.await(10, TimeUnit.SECONDS)).isTrue();

        // Camel's graceful stop waits for the seda route's exchange, which ends after the consumer stopped
        node.stop();

        assertThat(deliveries).hasSize(1);
        assertThat(redis().getMap(key("orders", "msg"))).as("acknowledged: no record left").isEmpty();
        assertThat(redis().getStream(key("orders", "ready")).size()).as("no stream entry left").isZero();
    }

    @Test
    void messageWhoseRouteFailsAfterItsSedaCopyCompletedIsRetried() throws Exception {
        CountDownLatch copyDone = new CountDownLatch(1);
        ProducerTemplate producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from("redis-delay:orders?retrySchedule=50").process(e -> deliveries.add(e.getMessage().copy()))
                        .to("seda:audit")
                        .process(e -> {
                            // the copy settles first; then the route itself fails on its first delivery
                            assertThat(copyDone.await(10, TimeUnit.SECONDS)).isTrue();
                            if (deliveries.size() == 1) {
                                throw new IllegalStateException("partner refused order-1");
                            }
                        });
                // counted down once the copy's completions ran, the handed-over one (added before it) included
                from("seda:audit").process(e -> e.getExchangeExtension().addOnCompletion(countingDown(copyDone)));
            }
        }).createProducerTemplate();

        producer.sendBodyAndHeader("redis-delay:orders", "order-1", RedisDelayConstants.MESSAGE_ID, "order-1");

        await().atMost(Duration.ofSeconds(10)).until(() -> deliveries.size() == 2);
        assertThat(deliveries.get(1).getHeaders()).containsEntry(RedisDelayConstants.DELIVERY_COUNT, 2)
                .hasEntrySatisfying(RedisDelayConstants.LAST_ERROR,
                        error -> assertThat(error).asString().contains("partner refused order-1"));
        await().atMost(Duration.ofSeconds(5)).until(() -> redis().getMap(key("orders", "msg")).isEmpty());
    }

    @Test
    void messageWhoseHandoverFailsOnAFullSedaQueueIsRetried() throws Exception {
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from("redis-delay:orders?visibilityTimeout=500ms&maxDeliveries=0")
                        .process(e -> deliveries.add(e.getMessage().copy())).to("seda:full?size=1");
            }
        });
        ProducerTemplate producer = node.createProducerTemplate();
        // nothing consumes seda:full: this fills it
        producer.sendBody("seda:full?size=1", "filler");

        producer.sendBodyAndHeader("redis-delay:orders", "order-1", RedisDelayConstants.MESSAGE_ID, "order-1");

        await().atMost(Duration.ofSeconds(10)).until(() -> deliveries.size() >= 2);
        assertThat(deliveries.get(1).getHeader(RedisDelayConstants.DELIVERY_COUNT)).isEqualTo(2);
    }

    @Test
    void messageWhoseCopyAFullSedaQueueDropsIsDeliveredAgainAfterItsLease() throws Exception {
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders?visibilityTimeout=500ms&maxDeliveries=0")
                        .process(e -> deliveries.add(e.getMessage().copy()))
                        .to("seda:full?size=1&discardWhenFull=true");
            }
        });
        ProducerTemplate producer = node.createProducerTemplate();
        // nothing consumes seda:full: this fills it, and the queue drops the copies handed to it (no failure)
        producer.sendBody("seda:full?size=1", "filler");

        producer.sendBodyAndHeader("redis-delay:orders", "order-1", RedisDelayConstants.MESSAGE_ID, "order-1");

        // the dropped copy is noticed once the garbage collector finds it unreachable
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200)).until(() -> {
            System.gc();
            return deliveries.size() >= 2;
        });
        assertThat(deliveries.get(1).getHeader(RedisDelayConstants.DELIVERY_COUNT)).isEqualTo(2);
    }

    /**
     * An aggregator takes a copy of each exchange and completes the exchange itself: the message is acknowledged as it
     * enters, and what an in-memory aggregator holds when the context stops is gone (the component page says so).
     */
    @Test
    void messagesAnAggregatorHoldsAreAcknowledgedAndGoWithItWhenTheContextStops() throws Exception {
        List<Object> aggregated = new CopyOnWriteArrayList<>();
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders").process(e -> deliveries.add(e.getMessage().copy()))
                        .aggregate(constant(true), AggregationStrategies.string(",")).completionSize(3)
                        .process(e -> aggregated.add(e.getMessage().getBody()));
            }
        });
        ProducerTemplate producer = node.createProducerTemplate();
        producer.sendBodyAndHeader("redis-delay:orders", "order-1", RedisDelayConstants.MESSAGE_ID, "order-1");
        producer.sendBodyAndHeader("redis-delay:orders", "order-2", RedisDelayConstants.MESSAGE_ID, "order-2");

        await().atMost(Duration.ofSeconds(10)).until(() -> deliveries.size() == 2);
        await().atMost(Duration.ofSeconds(5)).until(() -> redis().getMap(key("orders", "msg")).isEmpty());
        node.stop();

        assertThat(aggregated).isEmpty();
        assertThat(redis().getMap(key("orders", "msg"))).as("no record left").isEmpty();
        assertThat(redis().getStream(key("orders", "ready")).size()).as("no stream entry left").isZero();
    }

    @Test
    void exchangeMarkedRollbackOnlyIsRetried() throws Exception {
        ProducerTemplate producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders?retrySchedule=50").process(e -> deliveries.add(e.getMessage().copy()))
                        .filter(e -> deliveries.size() == 1).markRollbackOnly();
            }
        }).createProducerTemplate();

        producer.sendBodyAndHeader("redis-delay:orders", "order-1", RedisDelayConstants.MESSAGE_ID, "order-1");

        await().atMost(Duration.ofSeconds(10)).until(() -> deliveries.size() == 2);
        assertThat(deliveries.get(1).getHeader(RedisDelayConstants.DELIVERY_COUNT)).isEqualTo(2);
        await().atMost(Duration.ofSeconds(5)).until(() -> redis().getMap(key("orders", "msg")).isEmpty());
    }

    /** One garbage collection, for a condition polled while the JVM collects: always true. */
    private static boolean collectGarbage() {
        System.gc();
        return true;
    }

    /** A completion that counts {@code latch} down when its exchange is done, whatever the outcome. */
    private static Synchronization countingDown(CountDownLatch latch) {
        return new SynchronizationAdapter() {
            @Override
            public void onDone(Exchange exchange) {
                latch.countDown();
            }
        };
    }
}
