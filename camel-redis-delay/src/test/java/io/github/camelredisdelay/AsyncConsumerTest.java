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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.IntStream;

import io.github.camelredisdelay.internal.QueueKeys;
import io.github.camelredisdelay.internal.ShardTags;
import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.AsyncCallback;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.ShutdownRunningTask;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.support.AsyncProcessorSupport;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@CamelSide
class AsyncConsumerTest extends RedisDelayTestSupport {

    /**
     * An asynchronous route step that holds each exchange until the test lets it go, as a non-blocking client would
     * until its reply arrives, and counts how many it holds at once.
     */
    private static final class HeldStep extends AsyncProcessorSupport {

        final BlockingQueue<Consumer<Exception>> held = new LinkedBlockingQueue<>();
        final AtomicInteger holding = new AtomicInteger();
        final AtomicInteger mostHeld = new AtomicInteger();
        final List<String> bodies = new CopyOnWriteArrayList<>();

        @Override
        public boolean process(Exchange exchange, AsyncCallback callback) {
            bodies.add(exchange.getMessage().getBody(String.class));
            mostHeld.accumulateAndGet(holding.incrementAndGet(), Math::max);
            held.add(failure -> {
                holding.decrementAndGet();
                exchange.setException(failure);
                callback.done(false);
            });
            return false;
        }

        /** Lets every held exchange go on another thread, failing each with {@code failure} unless it is null. */
        int releaseAll(Exception failure) {
            List<Consumer<Exception>> taken = new ArrayList<>();
            held.drainTo(taken);
            Thread releaser = new Thread(() -> taken.forEach(release -> release.accept(failure)));
            releaser.start();
            return taken.size();
        }
    }

    private RouteBuilder routeTo(String uri, HeldStep step) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from(uri).routeId("async").process(step);
            }
        };
    }

    private void scheduleDue(ProducerTemplate producer, int count) {
        for (int i = 0; i < count; i++) {
            producer.sendBody("redis-delay:orders", "m" + i);
        }
    }

    /** Lets held exchanges go until {@code count} went through the step, in at most {@code count} rounds. */
    private void releaseUntilDelivered(HeldStep step, int count) {
        for (int round = 0; round < count && step.bodies.size() < count; round++) {
            await().atMost(Duration.ofSeconds(10)).until(() -> !step.held.isEmpty() || step.bodies.size() >= count);
            step.releaseAll(null);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> step.bodies.size() >= count);
        step.releaseAll(null);
        await().atMost(Duration.ofSeconds(10)).until(() -> step.holding.get() == 0);
    }

    /** Schedules {@code due} messages that are due at once, then starts a route from {@code uri} into a held step. */
    private HeldStep holdingFrom(String uri, int due) throws Exception {
        scheduleDue(startContext().createProducerTemplate(), due);
        HeldStep step = new HeldStep();
        startContext(routeTo(uri, step));
        return step;
    }

    /** Waits until the step holds {@code count} exchanges, then a while longer, in which no more may arrive. */
    private static void awaitHolding(HeldStep step, int count) throws InterruptedException {
        await().atMost(Duration.ofSeconds(10)).until(() -> step.held.size() == count);
        TimeUnit.MILLISECONDS.sleep(300);
    }

    private void awaitNothingLeased() {
        await("nothing leased").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                .until(() -> redis().getStream(key("orders", "ready")).getPendingInfo(QueueKeys.GROUP).getTotal() == 0
                        && redis().getMap(key("orders", "msg")).isEmpty());
    }

    @Test
    void withAsyncConsumerOneThreadKeepsUpToMaxMessagesPerPollExchangesInFlightAndAcknowledgesEach() throws Exception {
        HeldStep step = holdingFrom("redis-delay:orders?asyncConsumer=true&maxMessagesPerPoll=5", 20);

        awaitHolding(step, 5);
        assertThat(step.mostHeld.get()).as("never more than maxMessagesPerPoll in flight").isEqualTo(5);
        releaseUntilDelivered(step, 20);

        assertThat(step.bodies).hasSize(20).doesNotHaveDuplicates();
        assertThat(step.mostHeld.get()).isEqualTo(5);
        awaitNothingLeased();
    }

    @Test
    void withoutAsyncConsumerEachThreadWaitsForItsExchangeToComplete() throws Exception {
        HeldStep step = holdingFrom("redis-delay:orders?maxMessagesPerPoll=5", 3);

        awaitHolding(step, 1);
        assertThat(step.held).as("the thread waits for its exchange").hasSize(1);
        releaseUntilDelivered(step, 3);

        assertThat(step.mostHeld.get()).isEqualTo(1);
        awaitNothingLeased();
    }

    @Test
    void aFailedAsynchronousExchangeIsDeliveredAgainAfterTheRetryDelay() throws Exception {
        ProducerTemplate producer = startContext().createProducerTemplate();
        producer.sendBody("redis-delay:orders", "x");
        HeldStep step = new HeldStep();
        List<Integer> deliveryCounts = new CopyOnWriteArrayList<>();
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from("redis-delay:orders?asyncConsumer=true&retrySchedule=100")
                        .process(e -> deliveryCounts.add(e.getMessage().getHeader(RedisDelayConstants.DELIVERY_COUNT,
                                Integer.class)))
                        .process(step);
            }
        });

        await().atMost(Duration.ofSeconds(10)).until(() -> step.held.size() == 1);
        step.releaseAll(new IllegalStateException("the remote call failed"));
        await().atMost(Duration.ofSeconds(10)).until(() -> step.held.size() == 1);
        step.releaseAll(null);

        assertThat(deliveryCounts).containsExactly(1, 2);
        awaitNothingLeased();
    }

    @Test
    void stoppingTheRouteWaitsForExchangesInFlightAndAcknowledgesThem() throws Exception {
        stoppingTheRouteWaitsForExchangesInFlightAndAcknowledgesThem("redis-delay:orders?asyncConsumer=true");
    }

    @Test
    void stoppingAPollingRouteWaitsForExchangesInFlightAndAcknowledgesThem() throws Exception {
        stoppingTheRouteWaitsForExchangesInFlightAndAcknowledgesThem(
                "redis-delay:orders?consumerType=polling&pollInterval=50&asyncConsumer=true&maxMessagesPerPoll=3");
    }

    private void stoppingTheRouteWaitsForExchangesInFlightAndAcknowledgesThem(String uri) throws Exception {
        ProducerTemplate producer = startContext().createProducerTemplate();
        scheduleDue(producer, 3);
        HeldStep step = new HeldStep();
        CamelContext consumer = startContext(routeTo(uri, step));
        await().atMost(Duration.ofSeconds(10)).until(() -> step.held.size() == 3);

        Thread stopper = new Thread(() -> {
            try {
                consumer.getRouteController().stopRoute("async", 30, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        stopper.start();
        TimeUnit.MILLISECONDS.sleep(500);
        assertThat(stopper.isAlive()).as("the stop waits for the exchanges in flight").isTrue();
        assertThat(step.releaseAll(null)).isEqualTo(3);
        stopper.join(TimeUnit.SECONDS.toMillis(30));

        assertThat(stopper.isAlive()).isFalse();
        assertThat(step.bodies).hasSize(3);
        awaitNothingLeased();
    }

    @Test
    void stoppingABlockingRouteLetsItsFetchedExchangesRunPastTwoSecondsAndAcknowledgesThem() throws Exception {
        ProducerTemplate producer = startContext().createProducerTemplate();
        scheduleDue(producer, 2);
        List<String> finished = new CopyOnWriteArrayList<>();
        List<String> interrupted = new CopyOnWriteArrayList<>();
        CamelContext consumer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                // the whole fetched batch is routed before the stop (Camel's default completes the current one only)
                from("redis-delay:orders?maxMessagesPerPoll=2").routeId("blocking")
                        .shutdownRunningTask(ShutdownRunningTask.CompleteAllTasks).process(exchange -> {
                            try {
                                TimeUnit.MILLISECONDS.sleep(1500);
                            } catch (InterruptedException e) {
                                interrupted.add(exchange.getMessage().getBody(String.class));
                                throw e;
                            }
                            finished.add(exchange.getMessage().getBody(String.class));
                        });
            }
        });
        await().atMost(Duration.ofSeconds(10))
                .until(() -> redis().getStream(key("orders", "ready")).getPendingInfo(QueueKeys.GROUP).getTotal() == 2);

        // the two fetched exchanges need about 3 s in all
        consumer.getRouteController().stopRoute("blocking", 30, TimeUnit.SECONDS);

        assertThat(interrupted).isEmpty();
        assertThat(finished).containsExactlyInAnyOrder("m0", "m1");
        awaitNothingLeased();
    }

    @Test
    void pollingConsumerWithAsyncConsumerRoutesAPollsMessagesTogetherAndWaitsForThemBeforeTheNextPoll() throws Exception {
        HeldStep step = holdingFrom(
                "redis-delay:orders?consumerType=polling&pollInterval=50&asyncConsumer=true&maxMessagesPerPoll=4", 12);

        awaitHolding(step, 4);
        assertThat(step.held).as("the next poll waits for the batch").hasSize(4);
        releaseUntilDelivered(step, 12);

        assertThat(step.bodies).hasSize(12).doesNotHaveDuplicates();
        assertThat(step.mostHeld.get()).isEqualTo(4);
        awaitNothingLeased();
    }

    @Test
    void pollingConsumerWithAsyncConsumerRoutesThePollsMessagesOfEveryShardTogether() throws Exception {
        ProducerTemplate producer = startContext().createProducerTemplate();
        String uri = "redis-delay:orders?shards=3&consumerType=polling&pollInterval=50&asyncConsumer=true";
        // one due message on each shard
        for (int shard = 0; shard < 3; shard++) {
            int wanted = shard;
            String id = IntStream.range(0, 100).mapToObj(i -> "s" + i)
                    .filter(candidate -> ShardTags.shardOf(candidate, 3) == wanted)
                    .findFirst().orElseThrow();
            producer.sendBodyAndHeader(uri, "on shard " + shard, RedisDelayConstants.MESSAGE_ID, id);
        }
        await("all ready").atMost(Duration.ofSeconds(5))
                .until(() -> Long.valueOf(3)
                        .equals(producer.requestBody(uri + "&operation=stats", null, Map.class).get("ready")));
        HeldStep step = new HeldStep();
        startContext(routeTo(uri, step));

        // a held exchange of shard 0 must not keep the poll from routing the other shards' messages
        await().atMost(Duration.ofSeconds(10)).untilAsserted(
                () -> assertThat(step.held).as("exchanges held at once, one of each shard").hasSize(3));
        releaseUntilDelivered(step, 3);

        assertThat(step.bodies).containsExactlyInAnyOrder("on shard 0", "on shard 1", "on shard 2");
    }
}
