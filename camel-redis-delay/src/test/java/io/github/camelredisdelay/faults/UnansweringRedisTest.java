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
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import io.github.camelredisdelay.embedded.RedisBinary;
import io.github.camelredisdelay.embedded.RedisServerOptions;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.ProcessSignals;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.apache.camel.AsyncProducer;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.support.DefaultExchange;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The first call on a client that has never reached its Redis blocks the calling thread for the whole connect attempt
 * (the client is created when first used, which lets a context start while Redis is down). A Redis that does not answer
 * (here a server stopped with SIGSTOP) must delay only the queues on it, not those of another Redis in the same
 * context. Camel's side: a stopped process answers nothing whatever server it runs, so the Redis 7 pass is enough.
 */
@CamelSide
class UnansweringRedisTest extends FaultTestSupport {

    private final List<String> delivered = new CopyOnWriteArrayList<>();

    /** What a test does with a redis-server that was stopped with SIGSTOP before anything reached it. */
    private interface WithSilentRedis {
        void run(RedisServerProcess silent) throws Exception;
    }

    private static void withSilentRedis(WithSilentRedis test) throws Exception {
        RedisBinary binary
                = RedisBinary.select(System.getProperty(RedisServerExtension.BINARY_PROPERTY, RedisBinary.PATH_CHOICE));
        try (RedisServerProcess silent = RedisServerProcess.start(binary, RedisServerOptions.defaults())) {
            ProcessSignals.pause(silent);
            try {
                test.run(silent);
            } finally {
                ProcessSignals.resume(silent);
            }
        }
    }

    @Test
    void aRedisThatNeverAnsweredDelaysNoQueueOnAnotherRedis() throws Exception {
        withSilentRedis(silent -> {
            long starting = System.nanoTime();
            ProducerTemplate producer = startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:orders").process(e -> delivered.add(e.getMessage().getBody(String.class)));
                    from("direct:payment").to("redis-delay:payments?address=" + silent.uri());
                }
            }).createProducerTemplate();
            Duration start = Duration.ofNanos(System.nanoTime() - starting);

            for (int i = 0; i < 3; i++) {
                producer.sendBody("redis-delay:orders?delay=500", "order-" + i);
            }

            await().atMost(Duration.ofSeconds(4)).until(() -> delivered.size() == 3);
            assertThat(start).as("context start beside the silent Redis").isLessThan(Duration.ofSeconds(4));
        });
    }

    @Test
    void aScheduleToARedisThatNeverAnsweredDoesNotHoldItsCallersThread() throws Exception {
        withSilentRedis(silent -> {
            CamelContext node = startContext();
            AsyncProducer producer = startedPaymentsProducer(node, silent.uri());
            Exchange exchange = new DefaultExchange(node);
            exchange.getMessage().setBody("payment-1");
            CountDownLatch done = new CountDownLatch(1);

            boolean doneOnCallersThread = producer.process(exchange, doneSync -> done.countDown());

            assertThat(doneOnCallersThread).as("the schedule goes on without the caller's thread").isFalse();
            ProcessSignals.resume(silent);
            assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
            producer.stop();
        });
    }

    /**
     * Schedules that queue up behind a call to a Redis that stopped answering are not each sent, one call after
     * another, into the same silence: they fail with that call, so the last of a thousand fails as fast as the first
     * (one client timeout and one retry, about 6 s), not after ten such calls in a row.
     */
    @Test
    @Tag("slow")
    void schedulesQueuedBehindACallToARedisThatStoppedAnsweringFailWithItNotOneCallAfterAnother() throws Exception {
        RedisBinary binary
                = RedisBinary.select(System.getProperty(RedisServerExtension.BINARY_PROPERTY, RedisBinary.PATH_CHOICE));
        try (RedisServerProcess redis = RedisServerProcess.start(binary, RedisServerOptions.defaults())) {
            CamelContext node = startContext();
            AsyncProducer producer = startedPaymentsProducer(node, redis.uri());
            Exchange first = new DefaultExchange(node);
            first.getMessage().setBody("payment-0");
            CountDownLatch firstStored = new CountDownLatch(1);
            producer.process(first, doneSync -> firstStored.countDown());
            assertThat(firstStored.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(first.getException()).isNull();
            int schedules = 1000;
            List<Exchange> exchanges = new CopyOnWriteArrayList<>();
            AtomicInteger callbacks = new AtomicInteger();
            ProcessSignals.pause(redis);
            try {
                long sending = System.nanoTime();
                for (int i = 1; i <= schedules; i++) {
                    Exchange exchange = new DefaultExchange(node);
                    exchange.getMessage().setBody("payment-" + i);
                    exchanges.add(exchange);
                    producer.process(exchange, doneSync -> callbacks.incrementAndGet());
                }

                await("every schedule failed").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                        .until(() -> callbacks.get() == schedules);
                Duration allFailed = Duration.ofNanos(System.nanoTime() - sending);

                assertThat(exchanges).allSatisfy(exchange -> assertThat(exchange.getException()).isNotNull());
                assertThat(allFailed).as("every schedule failed within about one call's timeout")
                        .isLessThan(Duration.ofSeconds(15));
            } finally {
                ProcessSignals.resume(redis);
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> callbacks.get() >= schedules);
            assertThat(callbacks).as("each exchange's callback was called exactly once").hasValue(schedules);
            producer.stop();
        }
    }

    /**
     * With nothing in flight and Redis unreachable, a stopping consumer has nothing to wait for (leases can be neither
     * kept nor settled): its stop must not take the shutdown strategy's whole timeout, and then more, because its first
     * read is still waiting for the client's first connection.
     */
    @Test
    void aContextWhoseConsumerNeverReachedItsRedisStopsBeforeItsShutdownTimeout() throws Exception {
        withSilentRedis(silent -> {
            CamelContext node = startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:orders?address=" + silent.uri()).log("${body}");
                }
            });
            Duration shutdownTimeout = Duration.ofSeconds(node.getShutdownStrategy().getTimeout());

            long stopping = System.nanoTime();
            CompletableFuture.runAsync(node::stop).get(2, TimeUnit.MINUTES);
            Duration stop = Duration.ofNanos(System.nanoTime() - stopping);

            assertThat(stop).as("stop of a context whose only consumer never got an answer from Redis")
                    .isLessThan(shutdownTimeout);
        });
    }

    /**
     * A stop while the consumer's client is still making its first connection to a Redis that does not answer
     * interrupts the thread creating it (the transfer timer's shutdown): the client must not be left running, its
     * threads alive for the rest of the JVM's life. Slow (it waits out a whole creation): the faults profile runs it.
     */
    @Test
    @Tag("slow")
    void aContextStoppedWhileItsClientWasConnectingToARedisThatNeverAnsweredLeavesNoClientThreads() throws Exception {
        long before = redissonThreads();
        withSilentRedis(silent -> {
            CamelContext node = startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:orders?address=" + silent.uri()).log("${body}");
                }
            });
            await().atMost(Duration.ofSeconds(5)).until(() -> redissonThreads() > before);

            CompletableFuture.runAsync(node::stop).get(2, TimeUnit.MINUTES);
        });

        // longer than a whole creation against the silent Redis (about 6 s), which shuts a failed client down itself
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> assertThat(redissonThreads()).as(() -> "Redisson threads left after the stop: "
                                                                            + redissonThreadNames())
                        .isLessThanOrEqualTo(before));
    }

    private static SortedSet<String> redissonThreadNames() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.isAlive() && thread.getName().startsWith("redisson-")).map(Thread::getName)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static long redissonThreads() {
        return redissonThreadNames().size();
    }

    /**
     * A ConsumerTemplate's receiver leaves the consumer group when its context stops: while its Redis stopped answering
     * after a receive, that must not hold the stop for the client's retries (about 6 s with Redisson's defaults).
     */
    @Test
    void aContextWhoseConsumerTemplateReceivedFromARedisThatStoppedAnsweringStopsBeforeItsShutdownTimeout()
            throws Exception {
        RedisBinary binary
                = RedisBinary.select(System.getProperty(RedisServerExtension.BINARY_PROPERTY, RedisBinary.PATH_CHOICE));
        try (RedisServerProcess server = RedisServerProcess.start(binary, RedisServerOptions.defaults())) {
            CamelContext node = startContext();
            String uri = "redis-delay:orders?address=" + server.uri();
            assertThat(node.createConsumerTemplate().receiveNoWait(uri)).as("nothing scheduled").isNull();
            // shorter than the client's retries of a call Redis leaves unanswered (about 6 s with Redisson's defaults)
            node.getShutdownStrategy().setTimeout(5);
            Duration shutdownTimeout = Duration.ofSeconds(node.getShutdownStrategy().getTimeout());
            ProcessSignals.pause(server);
            try {
                long stopping = System.nanoTime();
                CompletableFuture.runAsync(node::stop).get(2, TimeUnit.MINUTES);
                Duration stop = Duration.ofNanos(System.nanoTime() - stopping);

                assertThat(stop).as("stop of a context whose ConsumerTemplate received from a Redis now silent")
                        .isLessThan(shutdownTimeout);
            } finally {
                ProcessSignals.resume(server);
            }
        }
    }

    /** A started asynchronous producer of queue payments (delay 1h) on the Redis at {@code address}. */
    private static AsyncProducer startedPaymentsProducer(CamelContext node, String address) throws Exception {
        AsyncProducer producer = node.getEndpoint("redis-delay:payments?delay=1h&address=" + address).createAsyncProducer();
        producer.start();
        return producer;
    }
}
