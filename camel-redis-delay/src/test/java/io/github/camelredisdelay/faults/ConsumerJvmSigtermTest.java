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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import io.github.camelredisdelay.RedisDelayConstants;
import io.github.camelredisdelay.faults.DeliveryLog.Entry;
import io.github.camelredisdelay.faults.DeliveryLog.Event;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/**
 * A rolling deployment as Kubernetes runs it: a consumer JVM gets SIGTERM (its shutdown hook stops the CamelContext
 * within the shutdown strategy's timeout) while its route has slow exchanges in flight and the rest of fetched batches
 * waiting, and a steady producer goes on. The other node takes over what the stopping one handed back at once, not once
 * a lease expired; an exchange cut off by the timeout is delivered again after {@code visibilityTimeout}; nothing is
 * lost or dead-lettered.
 */
class ConsumerJvmSigtermTest extends FaultTestSupport {

    private static final String QUEUE = "sigterm";
    /** Long, so that a handed-back message taken over at once is told from a lease that expired. */
    private static final String VISIBILITY = "visibilityTimeout=20s";
    private static final long SLOW_WORK_MILLIS = 2_000;
    /** Each of the stopping JVM's two reader threads holds a batch of this many, routed one after another. */
    private static final int BATCH = 5;
    /** How much later than its shutdown timeout a JVM may exit: the readers' 2 s grace, closing clients, exiting. */
    private static final Duration EXIT_MARGIN = Duration.ofSeconds(5);
    /** How soon after the stopping JVM exited another node must have taken over what it handed back. */
    private static final Duration PROMPT_TAKEOVER = Duration.ofSeconds(3);

    @Test
    void sigtermedBlockingConsumerJvmHandsBackItsUnroutedBatchToTheOtherNodeAtOnce() throws Exception {
        sigtermWithSlowExchangesInFlight("concurrentConsumers=2&maxMessagesPerPoll=" + BATCH);
    }

    @Test
    void sigtermedAsyncConsumerJvmHandsBackItsUnroutedBatchToTheOtherNodeAtOnce() throws Exception {
        sigtermWithSlowExchangesInFlight("concurrentConsumers=2&asyncConsumer=true&maxMessagesPerPoll=" + BATCH);
    }

    @Test
    void sigtermedPollingConsumerJvmHandsBackItsUnroutedBatchToTheOtherNodeAtOnce() throws Exception {
        sigtermWithSlowExchangesInFlight("consumerType=polling&pollInterval=200&maxMessagesPerPoll=" + BATCH);
    }

    @Test
    void exchangeOutlastingTheShutdownTimeoutIsCutOffAndDeliveredAgainOnceItsLeaseExpired() throws Exception {
        long shutdownTimeout = 3;
        DeliveryLog deliveryLog = redisDeliveryLog();
        ProducerTemplate producer = startContext().createProducerTemplate();
        producer.sendBodyAndHeader("redis-delay:" + QUEUE, "long job", RedisDelayConstants.MESSAGE_ID, "long");
        ConsumerJvm stopping = launchConsumerJvm(
                consumerJvmOptions(QUEUE, "visibilityTimeout=6s", 10_000, false).withShutdownTimeout(shutdownTimeout))
                .awaitReady(redis(), JVM_START_TIMEOUT);
        await("the JVM routes the message").atMost(Duration.ofSeconds(20))
                .until(() -> !deliveryLog.read().of("long").isEmpty());
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:" + QUEUE + "?visibilityTimeout=6s")
                        .process(new RecordingProcessor(deliveryLog, "survivor", 0));
            }
        });

        long sigtermAt = System.currentTimeMillis();
        Duration exit = stopping.terminate(Duration.ofSeconds(shutdownTimeout).plus(EXIT_MARGIN));
        assertThat(deliveryLog.awaitFinished(List.of("long"), Duration.ofSeconds(20))).as("delivered again").isTrue();

        List<Entry> events = deliveryLog.read().of("long");
        Entry again = events.get(events.size() - 1);
        System.out.println("[faults] SIGTERM during a 10 s exchange, shutdown timeout 3 s: exit=" + exit.toMillis()
                           + "ms deliveredAgainMsAfterSigterm=" + (again.atMillis() - sigtermAt) + " events=" + events);
        assertThat(exit).as("time from SIGTERM to exit").isLessThan(Duration.ofSeconds(shutdownTimeout).plus(EXIT_MARGIN));
        assertThat(events).extracting(Entry::event, Entry::consumer, Entry::deliveryCount).as("what happened to it")
                .containsExactly(tuple(Event.STARTED, stopping.consumerName(), 1), tuple(Event.STARTED, "survivor", 2),
                        tuple(Event.FINISHED, "survivor", 2));
        assertThat(again.atMillis() - sigtermAt).as("ms after the SIGTERM that the other node delivered it again: once"
                                                    + " its lease, extended until the stop, expired")
                .isGreaterThan(exit.toMillis());
        assertThat(producer.requestBody("redis-delay:" + QUEUE + "?operation=stats", null, Map.class))
                .as("statistics of the queue").containsEntry("deadLettered", 0L);
    }

    /**
     * A JVM whose route takes 2 s per exchange fetched two batches of five (one with a polling consumer); it gets
     * SIGTERM with a shutdown timeout of 5 s, so it finishes a few and hands back the rest when its time runs out.
     */
    private void sigtermWithSlowExchangesInFlight(String consumerOptions) throws Exception {
        long started = System.nanoTime();
        long shutdownTimeout = 5;
        DeliveryLog deliveryLog = redisDeliveryLog();
        ProducerTemplate producer = startContext().createProducerTemplate();
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < 2 * BATCH; i++) {
            String id = "b-" + i;
            producer.sendBodyAndHeader("redis-delay:" + QUEUE, "body of " + id, RedisDelayConstants.MESSAGE_ID, id);
            sent.add(id);
        }
        ConsumerJvm stopping = launchConsumerJvm(
                consumerJvmOptions(QUEUE, VISIBILITY + "&" + consumerOptions, SLOW_WORK_MILLIS, false)
                        .withShutdownTimeout(shutdownTimeout))
                .awaitReady(redis(), JVM_START_TIMEOUT);
        await("the JVM has fetched the messages and routes the first").atMost(Duration.ofSeconds(20))
                .until(() -> deliveryLog.read().entries().stream().anyMatch(e -> e.consumer().equals(stopping.consumerName())));

        startContext(survivor(deliveryLog));
        // 10 a second for 6 s: longer than the whole shutdown timeout, so it goes on through the stop, however long
        try (PacedProducer steady = new PacedProducer(producer, "redis-delay:" + QUEUE, "p", 10, 60, 300).start()) {
            long sigtermAt = System.currentTimeMillis();
            Duration exit = stopping.terminate(Duration.ofSeconds(shutdownTimeout).plus(EXIT_MARGIN));
            long exitedAt = System.currentTimeMillis();
            await("the steady producer has sent everything").atMost(Duration.ofSeconds(20)).until(steady::isDone);
            sent.addAll(steady.acknowledged().keySet());
            assertThat(deliveryLog.awaitFinished(sent, Duration.ofSeconds(40))).as("every message delivered").isTrue();
            awaitQueueDrained(QUEUE);

            Deliveries deliveries = deliveryLog.read();
            Set<String> cutOff = runningAt(deliveries, stopping, sigtermAt + shutdownTimeout * 1000);
            Map<String, Long> handedBackTakenAfterExit = takenOverFrom(deliveries, stopping, exitedAt);
            Tally tally = deliveries.tally(sent).report("SIGTERM " + consumerOptions,
                    Duration.ofNanos(System.nanoTime() - started),
                    "exit=" + exit.toMillis() + "ms cutOff=" + cutOff + " takenOverMsAfterExit=" + handedBackTakenAfterExit);

            assertThat(tally.lost()).isEmpty();
            assertThat(exit).as("time from SIGTERM to exit").isLessThan(Duration.ofSeconds(shutdownTimeout).plus(EXIT_MARGIN));
            assertThat(deliveries.duplicatedIds()).as("messages delivered twice, other than exchanges that outlasted the"
                                                      + " shutdown timeout")
                    .isSubsetOf(cutOff);
            assertThat(deliveries.entries()).filteredOn(e -> e.event() == Event.FINISHED && !cutOff.contains(e.messageId()))
                    .as("deliveries of messages whose exchange did not outlast the shutdown timeout, counted once").allSatisfy(
                            e -> assertThat(e.deliveryCount()).isEqualTo(1));
            assertThat(handedBackTakenAfterExit).as("messages the JVM held unrouted (SIGTERM at %d)", sigtermAt)
                    .isNotEmpty();
            assertThat(handedBackTakenAfterExit.values()).as("ms after the JVM exited that the other node took each over")
                    .allSatisfy(delay -> assertThat(delay).isLessThan(PROMPT_TAKEOVER.toMillis()));
            assertThat(producer.requestBody("redis-delay:" + QUEUE + "?operation=stats", null, Map.class))
                    .as("statistics of the queue").containsEntry("deadLettered", 0L);
        }
    }

    /**
     * Messages whose exchange in the stopping JVM had started and not finished at {@code atMillis}: the stop's timeout
     * cuts them off, or they finish too late to be acknowledged, and are delivered again after the visibility timeout.
     */
    private static Set<String> runningAt(Deliveries deliveries, ConsumerJvm stopping, long atMillis) {
        Set<String> running = new TreeSet<>();
        deliveries.entries().stream().filter(e -> e.consumer().equals(stopping.consumerName()) && e.atMillis() <= atMillis)
                .forEach(e -> {
                    if (e.event() == Event.STARTED) {
                        running.add(e.messageId());
                    } else {
                        running.remove(e.messageId());
                    }
                });
        return running;
    }

    /**
     * The first delivery on another node of each message the stopping JVM had fetched but neither started nor finished
     * (the preloaded batches it never routed): when it began, in ms after {@code exitedAt}.
     */
    private static Map<String, Long> takenOverFrom(Deliveries deliveries, ConsumerJvm stopping, long exitedAt) {
        Set<String> routedByIt = deliveries.entries().stream().filter(e -> e.consumer().equals(stopping.consumerName()))
                .map(Entry::messageId).collect(Collectors.toSet());
        return deliveries.entries().stream()
                .filter(e -> e.event() == Event.STARTED && e.messageId().startsWith("b-")
                        && !routedByIt.contains(e.messageId()))
                .collect(Collectors.toMap(Entry::messageId, e -> e.atMillis() - exitedAt, Math::min, TreeMap::new));
    }

    /** The other node: quick exchanges, the same visibility timeout. */
    private static RouteBuilder survivor(DeliveryLog deliveryLog) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:" + QUEUE + "?" + VISIBILITY + "&concurrentConsumers=2")
                        .process(new RecordingProcessor(deliveryLog, "survivor", 20));
            }
        };
    }
}
