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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.internal.QueueKeys;
import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.redisson.api.stream.StreamReadGroupArgs;
import org.slf4j.MDC;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/**
 * With MDC logging ({@code camel.main.useMdcLogging}), a delivery's message id and queue are in the MDC of the consumer
 * route's processors, on the delivering thread and, with {@code mdcLoggingKeysPattern} matching them, on the threads
 * the route continues on; they are gone from those threads afterwards.
 */
@SuppressWarnings("deprecation") // useMDCLogging and mdcLoggingKeysPattern: deprecated since Camel 4.19 (camel-mdc)
@CamelSide
class MdcLoggingTest extends RedisDelayTestSupport {

    /** What one processor saw in the MDC, and on which thread. */
    record Seen(String where, String messageId, String queue, String thread) {
    }

    private final List<Seen> seen = new CopyOnWriteArrayList<>();
    /** One thread, shared by the two routes' threads() steps: the probe runs where the deliveries continued. */
    private final ExecutorService oneThread = Executors.newSingleThreadExecutor(r -> new Thread(r, "mdc-test-pool"));

    @AfterEach
    void stopPool() throws InterruptedException {
        oneThread.shutdownNow();
        assertThat(oneThread.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
    }

    private void see(String where) {
        seen.add(new Seen(
                where, MDC.get(RedisDelayConstants.MDC_MESSAGE_ID), MDC.get(RedisDelayConstants.MDC_QUEUE),
                Thread.currentThread().getName()));
    }

    private List<Seen> seenAt(String where) {
        return seen.stream().filter(s -> s.where().equals(where)).toList();
    }

    private CamelContext node(boolean mdcLogging) throws Exception {
        CamelContext context = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs").routeId("jobs").process(e -> see("delivery"))
                        .to("redis-delay:later?delay=1h").process(e -> see("after schedule"))
                        .threads().executorService(oneThread)
                        .process(e -> see("after threads"));
                from("direct:probe").routeId("probe").threads().executorService(oneThread).process(e -> see("probe"));
            }
        });
        context.setUseMDCLogging(mdcLogging);
        context.setMDCLoggingKeysPattern("camel.redisDelay.*");
        context.start();
        return context;
    }

    @Test
    void keysAreInTheRoutesMdcDuringADeliveryAndGoneFromItsThreadsAfterwards() throws Exception {
        CamelContext context = node(true);
        ProducerTemplate producer = context.createProducerTemplate();

        producer.sendBodyAndHeader("redis-delay:jobs", "a", RedisDelayConstants.MESSAGE_ID, "job-a");
        await().atMost(Duration.ofSeconds(10)).until(() -> seenAt("after threads").size() == 1);
        producer.sendBodyAndHeader("redis-delay:jobs", "b", RedisDelayConstants.MESSAGE_ID, "job-b");
        await().atMost(Duration.ofSeconds(10)).until(() -> seenAt("after threads").size() == 2);
        producer.sendBody("direct:probe", "probe");

        assertThat(seenAt("delivery")).extracting(Seen::messageId, Seen::queue)
                .containsExactly(tuple("job-a", "jobs"),
                        tuple("job-b", "jobs"));
        assertThat(seenAt("delivery")).extracting(Seen::thread).allMatch(name -> name.contains("RedisDelayConsumer"));
        // the schedule completes on one of the component's completion threads
        assertThat(seenAt("after schedule")).extracting(Seen::messageId, Seen::queue)
                .containsExactly(tuple("job-a", "jobs"), tuple("job-b", "jobs"));
        assertThat(seenAt("after schedule")).extracting(Seen::thread).allMatch(name -> name.contains("RedisDelayCompletions"));
        assertThat(seenAt("after threads")).extracting(Seen::messageId, Seen::queue, Seen::thread)
                .containsExactly(tuple("job-a", "jobs", "mdc-test-pool"),
                        tuple("job-b", "jobs", "mdc-test-pool"));
        // the exchange that runs next on the thread both deliveries continued on sees none of their keys
        assertThat(seenAt("probe")).singleElement().satisfies(probe -> {
            assertThat(probe.thread()).isEqualTo("mdc-test-pool");
            assertThat(probe.messageId()).isNull();
            assertThat(probe.queue()).isNull();
        });
        // nor does any of the component's completion threads, which handed the deliveries on to the pool
        assertThat(onEveryCompletionThread(context.getComponent("redis-delay", RedisDelayComponent.class)))
                .hasSize(RedisDelayComponent.COMPLETION_THREADS)
                .allSatisfy(onThread -> assertThat(onThread.messageId()).isNull())
                .allSatisfy(onThread -> assertThat(onThread.queue()).isNull());
    }

    /** What the MDC of each completion thread of the component holds: one task per thread, all running at once. */
    private List<Seen> onEveryCompletionThread(RedisDelayComponent component) {
        CountDownLatch allRunning = new CountDownLatch(RedisDelayComponent.COMPLETION_THREADS);
        for (int i = 0; i < RedisDelayComponent.COMPLETION_THREADS; i++) {
            component.runOnCompletionThread(() -> {
                see("completion thread");
                allRunning.countDown();
                try {
                    allRunning.await(5, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        await().atMost(Duration.ofSeconds(10))
                .until(() -> seenAt("completion thread").size() == RedisDelayComponent.COMPLETION_THREADS);
        List<Seen> onThreads = seenAt("completion thread");
        assertThat(onThreads).extracting(Seen::thread).doesNotHaveDuplicates();
        return onThreads;
    }

    @Test
    void withoutMdcLoggingTheMdcHasNoKeys() throws Exception {
        node(false).createProducerTemplate().sendBodyAndHeader("redis-delay:jobs", "a", RedisDelayConstants.MESSAGE_ID,
                "job-a");

        await().atMost(Duration.ofSeconds(10)).until(() -> seenAt("after threads").size() == 1);
        assertThat(seen).extracting(Seen::messageId).containsOnlyNulls();
        assertThat(seen).extracting(Seen::queue).containsOnlyNulls();
    }

    @Test
    void theDeliveringThreadGetsBackWhatItsMdcHeldBefore() {
        CamelContext context = new DefaultCamelContext();
        context.setUseMDCLogging(true);
        MDC.put(RedisDelayConstants.MDC_MESSAGE_ID, "outer");
        try {
            try (DeliveryMdc mdc = DeliveryMdc.open(context, "job-a", "jobs")) {
                assertThat(MDC.get(RedisDelayConstants.MDC_MESSAGE_ID)).isEqualTo("job-a");
                assertThat(MDC.get(RedisDelayConstants.MDC_QUEUE)).isEqualTo("jobs");
            }
            assertThat(MDC.get(RedisDelayConstants.MDC_MESSAGE_ID)).isEqualTo("outer");
            assertThat(MDC.get(RedisDelayConstants.MDC_QUEUE)).isNull();
        } finally {
            MDC.remove(RedisDelayConstants.MDC_MESSAGE_ID);
        }
    }

    /** The lines {@link Settlement} logs, each as {@code <MDC queue>/<MDC message id> <message>}. */
    private static List<String> withKeys(LogLines settlement) {
        return settlement.messagesWithMdc(RedisDelayConstants.MDC_QUEUE, RedisDelayConstants.MDC_MESSAGE_ID);
    }

    @Test
    void theComponentsLogLineAboutAFailedDeliveryCarriesTheKeys() throws Exception {
        try (LogLines settlement = LogLines.of(Settlement.class)) {
            CamelContext context = createContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:jobs?retrySchedule=1h").throwException(new IllegalStateException("no"));
                }
            });
            context.setUseMDCLogging(true);
            context.start();
            context.createProducerTemplate().sendBodyAndHeader("redis-delay:jobs", "a", RedisDelayConstants.MESSAGE_ID,
                    "job-a");

            await().atMost(Duration.ofSeconds(10)).until(() -> !settlement.lines().isEmpty());
            assertThat(withKeys(settlement).get(0)).startsWith("jobs/job-a Delivery 1 of message job-a on queue jobs failed");
        }
    }

    /**
     * A poison message that took its consumers down until its deliveries ran out is dead-lettered before it reaches the
     * route: the ERROR saying so is the line an operator searches for by the message's id.
     */
    @ParameterizedTest(name = "asyncConsumer={0}")
    @ValueSource(booleans = { false, true })
    void theDeadLetterLineOfAMessageWhoseLeasesKeptExpiringCarriesTheKeys(boolean asyncConsumer) throws Exception {
        startContext().createProducerTemplate().sendBodyAndHeader("redis-delay:jobs", "a", RedisDelayConstants.MESSAGE_ID,
                "job-a");
        var ready = redis().getStream(key("jobs", "ready"));
        await().atMost(Duration.ofSeconds(5)).until(() -> ready.size() == 1);
        // a consumer that reads the message and dies before settling it
        assertThat(ready.readGroup(QueueKeys.GROUP, "crashed-consumer", StreamReadGroupArgs.neverDelivered().count(1)))
                .hasSize(1);
        try (LogLines settlement = LogLines.of(Settlement.class)) {
            CamelContext context = createContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:jobs?visibilityTimeout=500&maxDeliveries=1&asyncConsumer=" + asyncConsumer)
                            .process(e -> see("delivery"));
                }
            });
            context.setUseMDCLogging(true);
            context.start();

            await().atMost(Duration.ofSeconds(10))
                    .until(() -> settlement.lines().stream().anyMatch(line -> line.contains("moved to dead-letter queue")));
            assertThat(withKeys(settlement)).filteredOn(line -> line.contains("moved to dead-letter queue")).singleElement()
                    .asString().startsWith("jobs/job-a Message job-a on queue jobs moved to dead-letter queue");
            assertThat(seen).isEmpty();
        }
    }
}
