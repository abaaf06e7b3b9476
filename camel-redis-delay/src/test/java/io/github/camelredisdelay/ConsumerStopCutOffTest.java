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
import java.util.concurrent.locks.LockSupport;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Consumer;
import org.apache.camel.Message;
import org.apache.camel.StatefulService;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.support.DefaultConsumer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a stop that runs out of time does to the exchanges it cuts off and to the rest of their batch: they stay the
 * queue's, leased, neither failed nor counted as a delivery, and are delivered again.
 */
@CamelSide
class ConsumerStopCutOffTest extends RedisDelayTestSupport {

    private final List<Message> attempts = new CopyOnWriteArrayList<>();

    @Test
    void anExchangeCutOffByAStopThatRanOutOfTimeStaysLeasedInsteadOfFailing() throws Exception {
        CountDownLatch routing = new CountDownLatch(1);
        CountDownLatch neverReleased = new CountDownLatch(1);
        CamelContext node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs?maxDeliveries=1").process(e -> {
                    routing.countDown();
                    // work that ends only when the stop interrupts it
                    neverReleased.await(10, TimeUnit.SECONDS);
                });
            }
        });
        node.getShutdownStrategy().setTimeout(1);
        node.start();
        node.createProducerTemplate().sendBodyAndHeader("redis-delay:jobs", "job", RedisDelayConstants.MESSAGE_ID, "job-1");
        assertThat(routing.await(10, TimeUnit.SECONDS)).isTrue();

        // the shutdown strategy gives up after 1 s and interrupts the consumer's threads
        node.stop();

        assertThat(redis().getMap(key("jobs.dead", "msg"))).as("not dead-lettered").isEmpty();
        assertThat(redis().getMap(key("jobs", "msg"))).as("still the queue's").containsKey("job-1");
        assertThat(redis().getMap(key("jobs", "fail"))).as("no failure noted").isEmpty();
    }

    @Test
    void anExchangeThatOutlastsTheStopOfItsConsumerAloneStaysLeasedInsteadOfFailing() throws Exception {
        CountDownLatch routing = new CountDownLatch(1);
        CamelContext node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs?maxDeliveries=1").routeId("jobs").process(e -> {
                    routing.countDown();
                    // work deaf to interrupts (a driver call, say) that ends once the stopping consumer has stopped the
                    // route's processors, after its wait for the exchange ran out; Camel then refuses the exchange
                    DefaultConsumer consumer = (DefaultConsumer) e.getContext().getRoute("jobs").getConsumer();
                    StatefulService processors = (StatefulService) consumer.getProcessor();
                    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                    while (!processors.isStopped() && System.nanoTime() - end < 0) {
                        Thread.interrupted();
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
                    }
                });
            }
        });
        node.getShutdownStrategy().setTimeout(1);
        node.start();
        node.createProducerTemplate().sendBodyAndHeader("redis-delay:jobs", "job", RedisDelayConstants.MESSAGE_ID, "job-1");
        assertThat(routing.await(10, TimeUnit.SECONDS)).isTrue();

        // the consumer alone stops, as JMX's stop operation of a consumer does: its route stays started
        ((StatefulService) node.getRoute("jobs").getConsumer()).stop();
        await().atMost(Duration.ofSeconds(10)).until(() -> node.getInflightRepository().size() == 0);

        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(
                () -> redis().getMap(key("jobs", "fail")).isEmpty() && redis().getMap(key("jobs.dead", "msg")).isEmpty());
        assertThat(redis().getMap(key("jobs", "msg"))).as("still the queue's").containsKey("job-1");
    }

    @Test
    void theRestOfABatchThatAStopOfItsConsumerAloneGaveUpOnIsNotStarted() throws Exception {
        CamelContext node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs?maxMessagesPerPoll=3").routeId("jobs").process(e -> {
                    attempts.add(e.getMessage().copy());
                    // outlasts the stop's wait of 1 s; the interrupt after it ends the exchange
                    TimeUnit.SECONDS.sleep(10);
                });
            }
        });
        node.getShutdownStrategy().setTimeout(1);
        node.start();
        // one due time for the three: they become ready together and are fetched in one batch
        node.createProducerTemplate().sendBody("redis-delay:jobs?operation=scheduleBatch&delay=300",
                List.of("job-1", "job-2", "job-3"));
        await().atMost(Duration.ofSeconds(10)).until(() -> attempts.size() == 1);

        // the consumer alone stops, as JMX's stop operation of a consumer does: it waits 1 s, then interrupts
        ((StatefulService) node.getRoute("jobs").getConsumer()).stop();

        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> attempts.size() == 1);
        assertThat(redis().getMap(key("jobs", "msg"))).as("all three still the queue's").hasSize(3);
    }

    @Test
    void aBatchThatARouteStopCutsOffStaysLeasedInsteadOfFailing() throws Exception {
        CamelContext node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs?maxMessagesPerPoll=3").routeId("jobs").process(e -> {
                    attempts.add(e.getMessage().copy());
                    // outlasts the stop's timeout: ends once the consumer is stopped, after the strategy gave up
                    Consumer consumer = e.getContext().getRoute("jobs").getConsumer();
                    await().pollInterval(Duration.ofMillis(10)).atMost(Duration.ofSeconds(10))
                            .until(() -> ((StatefulService) consumer).isStopping() || ((StatefulService) consumer).isStopped());
                });
            }
        });
        node.start();
        // one due time for the three: they become ready together and are fetched in one batch
        node.createProducerTemplate().sendBody("redis-delay:jobs?operation=scheduleBatch&delay=300",
                List.of("job-1", "job-2", "job-3"));
        await().atMost(Duration.ofSeconds(10)).until(() -> attempts.size() == 1);

        // the first exchange outlasts the stop's timeout; the two fetched with it must not start after that
        node.getRouteController().stopRoute("jobs", 1, TimeUnit.SECONDS);
        await().during(Duration.ofMillis(2500)).atMost(Duration.ofSeconds(4)).until(() -> attempts.size() == 1);

        // the first exchange ends while its route stops: acknowledged, or refused and left leased; the rest of its batch
        // is left leased; none of them failed
        assertThat(redis().getMap(key("jobs", "msg"))).as("left leased, delivered again later").hasSizeBetween(2, 3);
        assertThat(redis().getMap(key("jobs", "fail"))).as("no failure noted").isEmpty();
    }

    @Test
    void theRestOfABatchAStopCutsOffIsHandedBackWithoutCountingADelivery() throws Exception {
        String uri = "redis-delay:jobs?maxMessagesPerPoll=3&maxDeliveries=1&visibilityTimeout=1s";
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).routeId("jobs").process(e -> {
                    attempts.add(e.getMessage().copy());
                    // outlasts the stop's timeout of 1 s (ended by its interrupt, at the latest after 2 s), so that
                    // the rest of its batch is never routed
                    Consumer consumer = e.getContext().getRoute("jobs").getConsumer();
                    await().pollInterval(Duration.ofMillis(10)).atMost(Duration.ofSeconds(10))
                            .until(() -> ((StatefulService) consumer).isStopping()
                                    || ((StatefulService) consumer).isStopped());
                    new CountDownLatch(1).await(2, TimeUnit.SECONDS);
                });
            }
        });
        node.createProducerTemplate().sendBody("redis-delay:jobs?operation=scheduleBatch&delay=300",
                List.of("job-1", "job-2", "job-3"));
        await().atMost(Duration.ofSeconds(10)).until(() -> attempts.size() == 1);
        node.getRouteController().stopRoute("jobs", 1, TimeUnit.SECONDS);

        // another node takes them over (not the same route started again: Camel's shutdown task, still going on after
        // its timeout, may stop that route's consumer once more)
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).process(e -> attempts.add(e.getMessage().copy()));
            }
        });

        // maxDeliveries=1: had the stop counted a delivery of theirs, they would be dead-lettered now
        String first = attempts.get(0).getBody(String.class);
        List<String> rest = List.of("job-1", "job-2", "job-3").stream().filter(body -> !body.equals(first)).toList();
        await().atMost(Duration.ofSeconds(10)).until(() -> attempts.stream().map(m -> m.getBody(String.class))
                .toList().containsAll(rest));
        assertThat(attempts).filteredOn(m -> rest.contains(m.getBody(String.class)))
                .allSatisfy(m -> assertThat(m.getHeader(RedisDelayConstants.DELIVERY_COUNT)).isEqualTo(1));
    }
}
