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

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.github.camelredisdelay.internal.Refusal;
import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.CamelExecutionException;
import org.apache.camel.Consumer;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.StatefulService;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.support.DefaultConsumer;
import org.apache.camel.support.DefaultHeaderFilterStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.redisson.client.codec.ByteArrayCodec;
import org.redisson.client.codec.StringCodec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class RetryAndDeadLetterTest extends RedisDelayTestSupport {

    private final List<Message> attempts = new CopyOnWriteArrayList<>();
    private final List<Message> deadLetters = new CopyOnWriteArrayList<>();

    @Test
    void failedExchangeIsRedeliveredWithIncreasingCountUntilItSucceeds() throws Exception {
        var producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from("redis-delay:jobs?retrySchedule=100,300&maxDeliveries=5").process(e -> {
                    attempts.add(e.getMessage().copy());
                    if (attempts.size() < 3) {
                        throw new IllegalStateException("callback refused " + attempts.size());
                    }
                });
            }
        }).createProducerTemplate();

        producer.sendBody("redis-delay:jobs", "job");

        await().atMost(Duration.ofSeconds(10)).until(() -> attempts.size() == 3);
        assertThat(attempts).extracting(m -> m.getHeader(RedisDelayConstants.DELIVERY_COUNT)).containsExactly(1, 2, 3);
        assertThat(attempts.get(2).getHeader(RedisDelayConstants.LAST_ERROR))
                .isEqualTo("java.lang.IllegalStateException: callback refused 2");
        long firstRetryGap = attempts.get(1).getHeader(RedisDelayConstants.SCHEDULED_FOR, Long.class)
                             - attempts.get(0).getHeader(RedisDelayConstants.SCHEDULED_FOR, Long.class);
        assertThat(firstRetryGap).isGreaterThanOrEqualTo(100);
        await().atMost(Duration.ofSeconds(5)).until(() -> redis().getMap(key("jobs", "msg")).isEmpty()
                && redis().getMap(key("jobs", "fail")).isEmpty());
    }

    @Test
    void exhaustedMessageGoesToTheDeadLetterQueueWithItsOriginAndLastError() throws Exception {
        var producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from("redis-delay:jobs?retrySchedule=50&maxDeliveries=3").process(e -> {
                    attempts.add(e.getMessage().copy());
                    throw new IllegalArgumentException("bad job");
                });
                from("redis-delay:jobs.dead").process(e -> deadLetters.add(e.getMessage().copy()));
            }
        }).createProducerTemplate();

        producer.sendBodyAndHeader("redis-delay:jobs", "job", "tenant", "acme");

        await().atMost(Duration.ofSeconds(10)).until(() -> deadLetters.size() == 1);
        assertThat(attempts).hasSize(3);
        Message dead = deadLetters.get(0);
        assertThat(dead.getBody()).isEqualTo("job");
        assertThat(dead.getHeader("tenant")).isEqualTo("acme");
        assertThat(dead.getHeader(RedisDelayConstants.ORIGINAL_QUEUE)).isEqualTo("jobs");
        assertThat(dead.getHeader(RedisDelayConstants.LAST_ERROR)).isEqualTo("java.lang.IllegalArgumentException: bad job");
        assertThat(dead.getHeaders()).as("the component's note of the delivery a dead letter was copied from")
                .doesNotContainKey("CamelRedisDelayDeadLetterOf");
        assertThat(dead.getHeader(RedisDelayConstants.MESSAGE_ID))
                .isEqualTo(attempts.get(0).getHeader(RedisDelayConstants.MESSAGE_ID));
        await().atMost(Duration.ofSeconds(5)).until(() -> redis().getMap(key("jobs", "msg")).isEmpty());
    }

    /**
     * An error handler that handles the route's exception and marks the exchange rollback-only, to have the queue retry
     * it without Camel logging the failure: the redelivery and the dead letter name the exception it handled.
     */
    @Test
    void exchangeAnErrorHandlerMarkedRollbackOnlyIsDeadLetteredWithTheErrorItHandled() throws Exception {
        var producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                onException(IllegalStateException.class).handled(true).markRollbackOnly();
                from("redis-delay:jobs?retrySchedule=50&maxDeliveries=2").process(e -> {
                    attempts.add(e.getMessage().copy());
                    throw new IllegalStateException("payment gateway down");
                });
                from("redis-delay:jobs.dead").process(e -> deadLetters.add(e.getMessage().copy()));
            }
        }).createProducerTemplate();

        producer.sendBody("redis-delay:jobs", "job");

        await().atMost(Duration.ofSeconds(10)).until(() -> deadLetters.size() == 1);
        assertThat(attempts).hasSize(2);
        assertThat(attempts.get(1).getHeader(RedisDelayConstants.LAST_ERROR, String.class))
                .startsWith("org.apache.camel.RollbackExchangeException: ")
                .contains("java.lang.IllegalStateException", "payment gateway down");
        assertThat(deadLetters.get(0).getHeader(RedisDelayConstants.LAST_ERROR, String.class))
                .startsWith("org.apache.camel.RollbackExchangeException: ")
                .contains("java.lang.IllegalStateException", "payment gateway down");
    }

    /**
     * A route whose failure wraps another (a bean that called a ProducerTemplate gets a CamelExecutionException, whose
     * message names only the exchange): the last error names the exception underneath too.
     */
    @Test
    void theLastErrorOfAWrappedFailureNamesTheExceptionItWraps() throws Exception {
        var producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from("redis-delay:jobs?retrySchedule=50&maxDeliveries=2").process(e -> {
                    attempts.add(e.getMessage().copy());
                    throw new CamelExecutionException(
                            "Exception occurred during execution on the exchange", e,
                            new IllegalStateException("payment gateway down"));
                });
            }
        }).createProducerTemplate();

        producer.sendBody("redis-delay:jobs", "job");

        await().atMost(Duration.ofSeconds(10)).until(() -> attempts.size() == 2);
        assertThat(attempts.get(1).getHeader(RedisDelayConstants.LAST_ERROR, String.class))
                .startsWith("org.apache.camel.CamelExecutionException: Exception occurred during execution")
                .endsWith("; caused by java.lang.IllegalStateException: payment gateway down");
    }

    @Test
    void exchangeHandledByTheRoutesErrorHandlerCountsAsSuccess() throws Exception {
        var producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                onException(IllegalStateException.class).handled(true);
                from("redis-delay:jobs?retrySchedule=50").process(e -> {
                    attempts.add(e.getMessage().copy());
                    throw new IllegalStateException("handled");
                });
            }
        }).createProducerTemplate();

        producer.sendBody("redis-delay:jobs", "job");

        await().atMost(Duration.ofSeconds(5)).until(() -> attempts.size() == 1 && redis().getMap(key("jobs", "msg")).isEmpty());
        await().pollDelay(Duration.ofMillis(300)).atMost(Duration.ofSeconds(1)).until(() -> true);
        assertThat(attempts).hasSize(1);
    }

    @Test
    void aDeliveryTheHeaderFilterStrategyFailsOnIsRetriedAndTheConsumerGoesOn() throws Exception {
        CamelContext node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs?headerFilterStrategy=#refusing&retrySchedule=50&maxDeliveries=2")
                        .process(e -> attempts.add(e.getMessage().copy()));
                from("redis-delay:jobs.dead").process(e -> deadLetters.add(e.getMessage().copy()));
            }
        });
        node.getRegistry().bind("refusing", new DefaultHeaderFilterStrategy() {
            @Override
            public boolean applyFilterToExternalHeaders(String name, Object value, Exchange exchange) {
                if ("poison".equals(name)) {
                    throw new IllegalStateException("refused header poison");
                }
                return super.applyFilterToExternalHeaders(name, value, exchange);
            }
        });
        node.start();
        var producer = node.createProducerTemplate();

        producer.sendBodyAndHeader("redis-delay:jobs", "bad", "poison", "yes");
        await().atMost(Duration.ofSeconds(10)).until(() -> deadLetters.size() == 1);
        producer.sendBody("redis-delay:jobs", "good");

        await().atMost(Duration.ofSeconds(10)).until(() -> attempts.size() == 1);
        assertThat(attempts.get(0).getBody()).isEqualTo("good");
        assertThat(deadLetters.get(0).getHeader(RedisDelayConstants.LAST_ERROR, String.class))
                .contains("refused header poison");
    }

    @Test
    void corruptStoredMessageGoesToTheDeadLetterQueueInsteadOfCrashing() throws Exception {
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs").process(e -> attempts.add(e.getMessage().copy()));
                from("redis-delay:jobs.dead").process(e -> deadLetters.add(e.getMessage().copy()));
            }
        });
        // a record whose envelope (format version 1) has a body kind 9 that no version writes, planted behind the
        // component's back
        dueSet("jobs").plant("corrupt", 0);
        byte[] scheduledAt = ByteBuffer.allocate(8).putLong(1_700_000_000_000L).array();
        byte[] envelope = "\u0001\u0009payload".getBytes(StandardCharsets.UTF_8);
        // the record's head: scheduled-at in 6 bytes, due time 0 in 7, generation 0 in 2
        byte[] record = ByteBuffer.allocate(15 + envelope.length).put(scheduledAt, 2, 6).put(new byte[7]).put(new byte[2])
                .put(envelope).array();
        redis().getMap(key("jobs", "msg"), ByteArrayCodec.INSTANCE).put("corrupt".getBytes(StandardCharsets.UTF_8), record);
        var producer = startContext().createProducerTemplate();
        producer.sendBody("redis-delay:jobs", "fine");

        await().atMost(Duration.ofSeconds(10)).until(() -> deadLetters.size() == 1 && attempts.size() == 1);
        Message dead = deadLetters.get(0);
        assertThat(dead.getHeader(RedisDelayConstants.MESSAGE_ID)).isEqualTo("corrupt");
        assertThat(dead.getHeader(RedisDelayConstants.LAST_ERROR, String.class)).contains("unknown body kind 9");
        assertThat(dead.getBody(byte[].class)).startsWith(1, 9);
    }

    @Test
    void aDeliveryWhoseRecordWasOverwrittenWithAValueTooShortToBeOneIsSettledWithoutAnError() throws Exception {
        try (LogLines consumerLog = LogLines.of(RedisDelayConsumer.class)) {
            startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:jobs").process(e -> {
                        attempts.add(e.getMessage().copy());
                        // behind the component's back, while the message is in flight
                        redis().getMap(key("jobs", "msg")).put("job-1", "xx");
                    });
                }
            }).createProducerTemplate().sendBodyAndHeader("redis-delay:jobs", "job", RedisDelayConstants.MESSAGE_ID, "job-1");

            var ready = redis().getStream(key("jobs", "ready"));
            await().atMost(Duration.ofSeconds(5)).until(() -> attempts.size() == 1 && ready.size() == 0);
            assertThat(consumerLog.lines()).as("the acknowledgement's script ran to its end").isEmpty();
        }
        assertThat(redis().getMap(key("jobs", "msg")).get("job-1")).as("not the delivered version: left alone")
                .isEqualTo("xx");
    }

    @ParameterizedTest
    @ValueSource(strings = { "asyncConsumer=false", "asyncConsumer=true", "consumerType=polling&pollInterval=100" })
    void aRouteThatThrowsAnErrorNeitherEndsTheConsumerNorHoldsTheRestOfItsBatch(String consumer) throws Exception {
        var producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs?maxMessagesPerPoll=5&visibilityTimeout=500&" + consumer)
                        .process(e -> {
                            attempts.add(e.getMessage().copy());
                            if ("poison".equals(e.getMessage().getBody(String.class))) {
                                throw new StackOverflowError("poison");
                            }
                        });
            }
        }).createProducerTemplate();
        List<String> bodies = List.of("poison", "m1", "m2", "m3", "m4");
        for (String body : bodies) {
            producer.sendBodyAndHeader("redis-delay:jobs?delay=200", body, RedisDelayConstants.MESSAGE_ID, body);
        }

        await().atMost(Duration.ofSeconds(10)).until(() -> attempts.stream().map(m -> m.getBody(String.class))
                .filter(body -> !"poison".equals(body)).count() == 4
                && attempts.stream().filter(m -> "poison".equals(m.getBody(String.class))).count() >= 2);
        producer.sendBodyAndHeader("redis-delay:jobs", "later", RedisDelayConstants.MESSAGE_ID, "later");
        await("a message scheduled afterwards").atMost(Duration.ofSeconds(5))
                .until(() -> attempts.stream().anyMatch(m -> "later".equals(m.getBody(String.class))));
    }

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

    @Test
    void aFailedDeliveryOfAVersionReplacedMeanwhileSaysWhyItIsNotRetried() throws Exception {
        try (LogLines settlementLog = LogLines.of(Settlement.class)) {
            startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    errorHandler(noErrorHandler());
                    from("redis-delay:jobs?retrySchedule=50").process(e -> {
                        attempts.add(e.getMessage().copy());
                        if (attempts.size() == 1) {
                            // a newer version, stored beside the one in flight, which keeps its own schedule
                            e.getContext().createProducerTemplate().sendBodyAndHeader(
                                    "redis-delay:jobs?delay=1h&onDuplicate=replace", "newer", RedisDelayConstants.MESSAGE_ID,
                                    "job-1");
                            throw new IllegalStateException("the old version fails");
                        }
                    });
                }
            }).createProducerTemplate().sendBodyAndHeader("redis-delay:jobs", "older", RedisDelayConstants.MESSAGE_ID,
                    "job-1");

            await().atMost(Duration.ofSeconds(5)).until(() -> settlementLog.lines().stream()
                    .anyMatch(line -> line.contains("job-1") && line.contains("not put back on schedule")
                            && line.contains(Refusal.SUPERSEDED.reason())));
        }
        assertThat(attempts).hasSize(1);
    }

    @Test
    void theSameIdDeadLetteredTwiceKeepsBothDeadLetters() throws Exception {
        ProducerTemplate producer = failingJobsWithJob1ParkedInTheDeadLetterQueue();

        deadLetterJob1(producer);

        assertThat(deadLetters.get(0).getBody()).isEqualTo("first");
        assertThat(deadLetters.get(0).getHeader(RedisDelayConstants.MESSAGE_ID, String.class)).startsWith("job-1#");
        assertThat(redis().getMap(key("jobs.dead", "msg")).containsKey("job-1")).as("the earlier dead letter is kept").isTrue();
    }

    @Test
    void aDeadLetterIsStoredBesideAnEarlierOneWhoseFailureNoteCannotBeRead() throws Exception {
        ProducerTemplate producer = failingJobsWithJob1ParkedInTheDeadLetterQueue();
        // written behind the component's back: a failure note that is not one
        redis().getMap(key("jobs.dead", "fail"), StringCodec.INSTANCE).put("job-1", "unreadable");

        deadLetterJob1(producer);

        assertThat(deadLetters.get(0).getHeader(RedisDelayConstants.MESSAGE_ID, String.class)).startsWith("job-1#");
    }

    /**
     * A queue whose every delivery fails and is dead-lettered, with "job-1" scheduled on it and another "job-1" already
     * in its dead-letter queue (due in an hour, so it stays there).
     */
    private ProducerTemplate failingJobsWithJob1ParkedInTheDeadLetterQueue() throws Exception {
        ProducerTemplate producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from("redis-delay:jobs?maxDeliveries=1").process(e -> {
                    throw new IllegalStateException("always fails");
                });
                from("redis-delay:jobs.dead").process(e -> deadLetters.add(e.getMessage().copy()));
            }
        }).createProducerTemplate();
        producer.sendBodyAndHeader("redis-delay:jobs?delay=1h", "first", RedisDelayConstants.MESSAGE_ID, "job-1");
        producer.sendBodyAndHeader("redis-delay:jobs.dead?delay=1h", "parked", RedisDelayConstants.MESSAGE_ID, "job-1");
        return producer;
    }

    /** Makes "job-1" of the queue due now, and waits for its dead letter to be delivered. */
    private void deadLetterJob1(ProducerTemplate producer) {
        producer.sendBodyAndHeader("redis-delay:jobs?operation=reschedule", null, RedisDelayConstants.MESSAGE_ID, "job-1");
        await().atMost(Duration.ofSeconds(10)).until(() -> deadLetters.size() == 1);
    }
}
