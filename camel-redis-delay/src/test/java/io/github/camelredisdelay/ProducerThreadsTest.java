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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ExchangePattern;
import org.apache.camel.NamedNode;
import org.apache.camel.Processor;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.Route;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.spi.TransactedPolicy;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Which thread a route continues on after a schedule, and that no continuation waits for a thread that is waiting
 * itself.
 */
@CamelSide
class ProducerThreadsTest extends RedisDelayTestSupport {

    private static final int EXCHANGES = 20;

    private final Map<String, String> continuedOn = new ConcurrentHashMap<>();

    @Test
    void byDefaultTheRouteContinuesOnACompletionThreadOfTheComponent() throws Exception {
        ProducerTemplate template = node("redis-delay:q?delay=60000").createProducerTemplate();

        List<Exchange> sent = sendAll(template);

        assertThat(sent).allSatisfy(exchange -> {
            assertThat(exchange.getException()).isNull();
            assertThat(exchange.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID)).isNotNull();
        });
        assertThat(continuedOn.values()).hasSize(EXCHANGES).allMatch(thread -> thread.contains("RedisDelayCompletions"));
        assertThat(dueSet("q").size()).isEqualTo(EXCHANGES);
    }

    @Test
    void whileEveryKeptCompletionThreadIsBusyTheRouteContinuesOnAnotherAndNeverOnTheRedisClientsThread()
            throws Exception {
        CamelContext node = node("redis-delay:q?delay=60000");
        RedisDelayComponent component = node.getComponent("redis-delay", RedisDelayComponent.class);
        CountDownLatch release = occupyKeptCompletionThreads(component);

        CompletableFuture<Exchange> sent = node.createProducerTemplate()
                .asyncSend("direct:schedule", exchange -> exchange.getMessage().setBody("m"));
        await().atMost(Duration.ofSeconds(10)).until(() -> dueSet("q").size() == 1);

        // the kept threads stay busy meanwhile
        assertThat(sent).succeedsWithin(Duration.ofSeconds(10));
        release.countDown();
        assertThat(sent.join().getException()).isNull();
        assertThat(continuedOn.values()).singleElement().asString().contains("RedisDelayCompletions");
    }

    @Test
    void theKeptCompletionThreadsOutliveCamelsKeepAliveWhileIdle() throws Exception {
        CamelContext node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:schedule").to("redis-delay:q?delay=60000");
            }
        });
        // how long Camel's pools keep an idle thread (camel.threadpool.keepAliveTime, 60 s by default), shortened
        node.getExecutorServiceManager().getDefaultThreadPoolProfile().setKeepAliveTime(1L);
        node.start();
        RedisDelayComponent component = node.getComponent("redis-delay", RedisDelayComponent.class);
        CountDownLatch release = occupyKeptCompletionThreads(component);
        release.countDown();

        // found: every completion thread ended once idle for the keep-alive, and each continuation after a quiet spell
        // started a thread again
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(completionThreads(node)).as("the component's completion threads")
                        .isEqualTo(RedisDelayComponent.COMPLETION_THREADS));
    }

    private static long completionThreads(CamelContext node) {
        String marker = "(" + node.getName() + ")";
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().contains(marker) && thread.getName().contains("RedisDelayCompletions"))
                .count();
    }

    @Test
    void aCompletionThatIsInBeforeItsContinuationIsAttachedStillRunsItOnACompletionThread() throws Exception {
        // Redis may reply before the producer attaches what continues the route: the stage is then complete already
        RedisDelayComponent component = node("redis-delay:q?delay=60000").getComponent("redis-delay",
                RedisDelayComponent.class);
        CompletableFuture<String> ranOn = new CompletableFuture<>();

        component.whenCompleteOnCompletionThread(CompletableFuture.completedFuture("stored"),
                (stored, failure) -> ranOn.complete(Thread.currentThread().getName()));

        assertThat(ranOn).succeedsWithin(Duration.ofSeconds(10)).asString().contains("RedisDelayCompletions");
    }

    @Test
    void aCompletionThatComesInOnceTheComponentStoppedItsCompletionThreadsStillNeverRunsOnTheThreadItCameInOn()
            throws Exception {
        // a reply of Redis, on the client's I/O thread, to a schedule sent just before the component stopped (by a
        // ProducerTemplate outside any route, which a graceful shutdown does not wait for)
        CamelContext node = node("redis-delay:q?delay=60000");
        RedisDelayComponent component = node.getComponent("redis-delay", RedisDelayComponent.class);
        node.stop();
        CompletableFuture<Thread> ranOn = new CompletableFuture<>();

        component.runOnCompletionThread(() -> ranOn.complete(Thread.currentThread()));

        assertThat(ranOn).succeedsWithin(Duration.ofSeconds(10)).isNotSameAs(Thread.currentThread());
    }

    /** Keeps each of the component's kept completion threads busy until the latch returned is counted down. */
    private static CountDownLatch occupyKeptCompletionThreads(RedisDelayComponent component) throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch busy = new CountDownLatch(RedisDelayComponent.COMPLETION_THREADS);
        for (int i = 0; i < RedisDelayComponent.COMPLETION_THREADS; i++) {
            component.runOnCompletionThread(() -> {
                busy.countDown();
                awaitQuietly(release);
            });
        }
        assertThat(busy.await(10, TimeUnit.SECONDS)).isTrue();
        return release;
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void withSynchronousTheRouteContinuesOnTheCallingThread() throws Exception {
        ProducerTemplate template = node("redis-delay:q?delay=60000&synchronous=true").createProducerTemplate();

        Exchange sent = template.send("direct:schedule", exchange -> exchange.getMessage().setBody("m"));

        assertThat(sent.getException()).isNull();
        assertThat(sent.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID)).isNotNull();
        assertThat(sent.getMessage().getHeader(RedisDelayConstants.SCHEDULED_FOR)).isNotNull();
        assertThat(continuedOn.values()).containsExactly(Thread.currentThread().getName());
        assertThat(dueSet("q").size()).isEqualTo(1);
    }

    /**
     * A {@code transacted()} route: Camel routes a transacted exchange synchronously, so the steps after the schedule
     * (the database write) run on the thread the transaction is bound to, as they do with {@code synchronous=true}.
     */
    @Test
    void inATransactedRouteTheRouteContinuesOnTheTransactionsThread() throws Exception {
        ThreadBoundTransaction transaction = new ThreadBoundTransaction();
        CamelContext node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:schedule").transacted().to("redis-delay:q?delay=60000")
                        .process(exchange -> continuedOn.put(exchange.getExchangeId(),
                                String.valueOf(transaction.current())));
            }
        });
        node.getRegistry().bind("PROPAGATION_REQUIRED", transaction);
        node.start();

        Exchange sent = node.createProducerTemplate().send("direct:schedule", exchange -> exchange.getMessage().setBody("m"));

        assertThat(sent.getException()).isNull();
        assertThat(continuedOn.values()).containsExactly("transaction of " + Thread.currentThread().getName());
        assertThat(dueSet("q").size()).isEqualTo(1);
    }

    /**
     * A transaction policy that, as Spring's, marks the exchange transacted and binds its transaction to the thread
     * that begins it: {@link #current} names it on that thread only.
     */
    private static final class ThreadBoundTransaction implements TransactedPolicy {

        private final ThreadLocal<String> bound = new ThreadLocal<>();

        String current() {
            return bound.get();
        }

        @Override
        public void beforeWrap(Route route, NamedNode definition) {
        }

        @Override
        public Processor wrap(Route route, Processor processor) {
            return exchange -> {
                exchange.getExchangeExtension().setTransacted(true);
                bound.set("transaction of " + Thread.currentThread().getName());
                try {
                    processor.process(exchange);
                } finally {
                    bound.remove();
                }
            };
        }
    }

    @Test
    void aRouteThatContinuedOnACompletionThreadMaySendAnotherScheduleAndWaitForIt() throws Exception {
        // as many continuations at once as there are completion threads, each then waiting for a schedule of its own
        CountDownLatch allCompletionThreadsBusy = new CountDownLatch(RedisDelayComponent.COMPLETION_THREADS);
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:schedule").to("redis-delay:q?delay=60000").process(exchange -> {
                    allCompletionThreadsBusy.countDown();
                    allCompletionThreadsBusy.await(5, TimeUnit.SECONDS);
                    ProducerTemplate inner = exchange.getContext().createProducerTemplate();
                    try {
                        inner.sendBody("redis-delay:audit?delay=60000", "audit of " + exchange.getExchangeId());
                    } finally {
                        inner.stop();
                    }
                    continuedOn.put(exchange.getExchangeId(), Thread.currentThread().getName());
                });
            }
        });

        List<Exchange> sent = sendAll(node.createProducerTemplate());

        assertThat(sent).allSatisfy(exchange -> assertThat(exchange.getException()).isNull());
        assertThat(dueSet("audit").size()).isEqualTo(EXCHANGES);
    }

    @Test
    void aRouteThatContinuedOnACompletionThreadMayWaitForAnotherRouteThatSchedules() throws Exception {
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("seda:audit?concurrentConsumers=4").to("redis-delay:audit?delay=60000");
                // InOut (a request that expects a reply, say): seda waits for the audit route, whose schedule
                // completes on a completion thread too
                from("direct:schedule").setExchangePattern(ExchangePattern.InOut).to("redis-delay:q?delay=60000")
                        .to("seda:audit?timeout=5000");
            }
        });

        List<Exchange> sent = sendAll(node.createProducerTemplate());

        assertThat(sent).allSatisfy(exchange -> assertThat(exchange.getException()).isNull());
        assertThat(dueSet("audit").size()).isEqualTo(EXCHANGES);
    }

    private CamelContext node(String scheduleUri) throws Exception {
        return startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:schedule").to(scheduleUri)
                        .process(exchange -> continuedOn.put(exchange.getExchangeId(), Thread.currentThread().getName()));
            }
        });
    }

    /** {@value #EXCHANGES} exchanges through direct:schedule at once; each back within 10 s. */
    private static List<Exchange> sendAll(ProducerTemplate template) {
        List<CompletableFuture<Exchange>> pending = new ArrayList<>();
        for (int i = 0; i < EXCHANGES; i++) {
            String body = "m" + i;
            pending.add(template.asyncSend("direct:schedule", exchange -> exchange.getMessage().setBody(body)));
        }
        List<Exchange> sent = new ArrayList<>();
        for (CompletableFuture<Exchange> exchange : pending) {
            assertThat(exchange).succeedsWithin(Duration.ofSeconds(10));
            sent.add(exchange.join());
        }
        return sent;
    }
}
