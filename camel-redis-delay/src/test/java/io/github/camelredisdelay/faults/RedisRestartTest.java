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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import io.github.camelredisdelay.RedisDelayConstants;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.faults.DeliveryLog.Entry;
import io.github.camelredisdelay.faults.DeliveryLog.Event;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Redis (append-only file) goes away and comes back while a producer and a consumer keep running: both resume by
 * themselves, no acknowledged send is lost and the transfer task is on time again. A node may also start while Redis is
 * down and deliver once it is back. The deliveries are noted in this JVM's memory, since Redis itself is what fails
 * here.
 */
class RedisRestartTest extends FaultTestSupport {

    /** Number of outages of the long variant; they alternate between stop and kill. */
    static final String OUTAGES_PROPERTY = "faults.restart.outages";

    private static final String QUEUE = "restart";
    private static final int RATE = 50;
    private static final int MAX_MESSAGES = 20_000;
    private static final long MAX_DELAY_MILLIS = 300;
    private static final int DELIVERIES_BETWEEN_OUTAGES = 50;
    /**
     * A consumer or transfer task whose calls failed during the outage retries with a back-off capped at 1 s; the
     * client's connections and its subscription come back after Redisson's own reconnection back-off (jittered); and a
     * read around the restart may have taken the message in Redis with its reply lost, so that it comes once its lease
     * expired, {@code visibilityTimeout} (2 s) later. Seen here: 1 ms to 2,002 ms. A missed wake-up would instead wait
     * for the 60 s safety net, which is what these tests tell apart.
     */
    private static final long LATE_TOLERANCE_MILLIS = 4_000;

    private enum Outage {
        /** {@code SHUTDOWN}: Redis flushes the append-only file and exits. */
        STOP,
        /** SIGKILL, as a crash. */
        KILL
    }

    /** The outcome, with when each outage began and when each send was acknowledged (local clock). */
    private record Run(Tally tally, List<Long> outagesAt, Map<String, Long> acknowledgedAt) {

        /** Asserts that no acknowledged send was lost; the message says how long before an outage each lost one was. */
        void assertNoneLost() {
            Map<String, Long> msBeforeAnOutage = tally.lost().stream().collect(Collectors.toMap(id -> id,
                    id -> outagesAt.stream().filter(at -> at >= acknowledgedAt.get(id))
                            .mapToLong(at -> at - acknowledgedAt.get(id)).min().orElse(Long.MAX_VALUE)));
            assertThat(msBeforeAnOutage).as("acknowledged sends never delivered, with how many ms before the next "
                                            + "outage each was acknowledged")
                    .isEmpty();
        }
    }

    @Test
    void noAcknowledgedMessageIsLostWhenRedisIsStoppedAndRestarted() throws Exception {
        runThrough("redis stop + restart under load", List.of(Outage.STOP), 1).assertNoneLost();
    }

    @Test
    void noAcknowledgedMessageIsLostWhenRedisIsKilledAndRestarted() throws Exception {
        runThrough("redis kill -9 + restart under load", List.of(Outage.KILL), 1).assertNoneLost();
    }

    @Test
    @Tag("slow")
    void noAcknowledgedMessageIsLostThroughRepeatedRedisOutages() throws Exception {
        List<Outage> outages = new ArrayList<>();
        for (int i = 0; i < Integer.getInteger(OUTAGES_PROPERTY, 6); i++) {
            outages.add(i % 2 == 0 ? Outage.STOP : Outage.KILL);
        }
        runThrough(outages.size() + " redis outages (stop/kill) under load", outages, 2).assertNoneLost();
    }

    @Test
    void delayedMessageIsDeliveredOnTimeAfterRedisRestart() throws Exception {
        RedisServerProcess redisServer = redisProcess();
        long started = System.nanoTime();
        DeliveryLog deliveryLog = DeliveryLog.inMemory();
        // a safety net of a minute: on time only if the transfer task resubscribed to its wake-up channel
        String uri = "redis-delay:" + QUEUE + "?visibilityTimeout=2s&transferInterval=60s";
        CamelContext node = startContext(consumer(uri, deliveryLog));
        ProducerTemplate template = node.createProducerTemplate();
        awaitSent(template, uri, "before", 300);
        await("delivery before the restart").atMost(Duration.ofSeconds(20))
                .until(() -> deliveryLog.read().finishedIds().contains("before"));

        redisServer.stop();
        redisServer.restart();
        long dueAt = awaitSent(template, uri, "after", 1_000);
        await("delivery after the restart").atMost(Duration.ofSeconds(90))
                .until(() -> deliveryLog.read().finishedIds().contains("after"));
        node.stop();

        long late = firstStart(deliveryLog.read(), "after") - dueAt;
        Tally tally = deliveryLog.read().tally(List.of("before", "after")).report("redis restart, then 1 s delay on time",
                Duration.ofNanos(System.nanoTime() - started), "late=" + late + "ms");
        assertThat(tally.lost()).isEmpty();
        assertThat(late).as("ms the message scheduled after the restart arrived after its due time")
                .isBetween(0L, LATE_TOLERANCE_MILLIS);
    }

    @Test
    void messagesFinishedWhileRedisIsDownAreAcknowledgedOnceItIsBack() throws Exception {
        RedisServerProcess redisServer = redisProcess();
        DeliveryLog deliveryLog = DeliveryLog.inMemory();
        String uri = "redis-delay:" + QUEUE + "?visibilityTimeout=2s";
        ProducerTemplate template = startContext().createProducerTemplate();
        template.sendBodyAndHeader(uri, "1", RedisDelayConstants.MESSAGE_ID, "m1");
        template.sendBodyAndHeader(uri, "2", RedisDelayConstants.MESSAGE_ID, "m2");
        // m1's acknowledgement waits for the batch; Redis goes away while m2 runs, so the flush after m2 fails
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).process(exchange -> {
                    String id = exchange.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID, String.class);
                    int count = exchange.getMessage().getHeader(RedisDelayConstants.DELIVERY_COUNT, Integer.class);
                    deliveryLog.record(Event.STARTED, id, count, "node");
                    if ("m2".equals(id) && count == 1) {
                        redisServer.stop();
                        // a slow exchange: when it ends, m1 has waited past the linger and the flush is due
                        TimeUnit.MILLISECONDS.sleep(100);
                    }
                    deliveryLog.record(Event.FINISHED, id, count, "node");
                });
            }
        });
        await("both delivered").atMost(Duration.ofSeconds(20))
                .until(() -> deliveryLog.read().finishedIds().containsAll(List.of("m1", "m2")));
        // an outage of two seconds: the flush gives up (the client retries once, 200 ms apart) before Redis is back
        await().pollDelay(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3)).until(() -> true);

        redisServer.restart();
        String msgKey = key(QUEUE, "msg");
        await("acknowledged once Redis is back").atMost(Duration.ofSeconds(30))
                .until(() -> "0".equals(redisServer.command("HLEN", msgKey)));
        node.stop();

        Tally tally = deliveryLog.read().tally(List.of("m1", "m2"));
        assertThat(redisServer.command("XLEN", key(QUEUE, "ready"))).isEqualTo("0");
        assertThat(tally.lost()).isEmpty();
        // the consumer kept their leases and acknowledged them itself: not handed out a second time
        assertThat(tally.duplicates()).isZero();
    }

    @Test
    void consumerNodeStartedWhileRedisIsDownDeliversWhatFellDueOnceRedisIsBack() throws Exception {
        RedisServerProcess redisServer = redisProcess();
        long started = System.nanoTime();
        DeliveryLog deliveryLog = DeliveryLog.inMemory();
        String uri = "redis-delay:" + QUEUE + "?visibilityTimeout=2s";
        List<String> sent = new ArrayList<>();
        long lastDueAt = 0;
        CamelContext producerNode = startContext();
        ProducerTemplate template = producerNode.createProducerTemplate();
        for (int i = 0; i < 5; i++) {
            lastDueAt = Math.max(lastDueAt, awaitSent(template, uri, "early-" + i, 1_000));
            sent.add("early-" + i);
        }
        producerNode.stop();
        redisServer.stop();

        // the consumer node starts while Redis is down, and the messages fall due meanwhile
        CamelContext node = startContext(consumer(uri, deliveryLog));
        long due = lastDueAt;
        await("messages fell due while Redis is down").atMost(Duration.ofSeconds(10))
                .until(() -> System.currentTimeMillis() > due + 500);
        redisServer.restart();
        long backAt = System.currentTimeMillis();
        await("deliveries once Redis is back").atMost(Duration.ofSeconds(60))
                .until(() -> deliveryLog.read().finishedIds().containsAll(sent));
        long firstAfter = sent.stream().mapToLong(id -> firstStart(deliveryLog.read(), id)).max().orElseThrow() - backAt;
        long dueAt = awaitSent(node.createProducerTemplate(), uri, "after", 1_000);
        sent.add("after");
        await("delivery of a message sent after Redis is back").atMost(Duration.ofSeconds(60))
                .until(() -> deliveryLog.read().finishedIds().contains("after"));
        node.stop();

        long late = firstStart(deliveryLog.read(), "after") - dueAt;
        Tally tally = deliveryLog.read().tally(sent).report("consumer started while redis down",
                Duration.ofNanos(System.nanoTime() - started), "allDueDeliveredWithin=" + firstAfter
                                                               + "ms afterRedisBack, newMessageLate=" + late + "ms");
        assertThat(tally.lost()).isEmpty();
        assertThat(late).as("ms the message sent after Redis came back arrived after its due time")
                .isBetween(0L, LATE_TOLERANCE_MILLIS);
    }

    private static RouteBuilder consumer(String uri, DeliveryLog deliveryLog) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).process(new RecordingProcessor(deliveryLog, "node-consumer", 5));
            }
        };
    }

    /**
     * Schedules a message, trying again while the send fails (Redis just came back); returns its due time.
     */
    private static long awaitSent(ProducerTemplate template, String uri, String id, long delayMillis) {
        AtomicLong dueAt = new AtomicLong();
        await("send of " + id + " acknowledged").atMost(Duration.ofSeconds(60)).ignoreExceptions()
                .until(() -> {
                    Exchange exchange = template.send(uri, e -> e.getMessage().setHeaders(Map.of(
                            RedisDelayConstants.MESSAGE_ID, id, RedisDelayConstants.DELAY, delayMillis)));
                    if (exchange.getException() != null) {
                        return false;
                    }
                    dueAt.set(exchange.getMessage().getHeader(RedisDelayConstants.SCHEDULED_FOR, Long.class));
                    return true;
                });
        return dueAt.get();
    }

    private static long firstStart(Deliveries deliveries, String id) {
        return deliveries.of(id).stream().filter(e -> e.event() == Event.STARTED).mapToLong(Entry::atMillis).min()
                .orElseThrow();
    }

    /**
     * Has Redis write and sync its append-only file before each reply until it next restarts. With the harness'
     * {@code appendfsync everysec}, a write Redis postponed behind a slow background sync (for up to two seconds,
     * having replied) is lost when the process is killed: a loss the server allows, which would hide or fake one of the
     * component's. Whatever was acknowledged before this call is written at the server's next turn, before any kill.
     */
    private static void syncEachWrite(RedisServerProcess redisServer) {
        redisServer.command("CONFIG", "SET", "appendfsync", "always");
    }

    /** Leaves Redis to the next tests as the harness started it (a restart after a failure does the same). */
    @AfterEach
    void syncOnceASecondAgain() {
        RedisServerExtension.process().filter(RedisServerProcess::isRunning)
                .ifPresent(server -> server.command("CONFIG", "SET", "appendfsync", "everysec"));
    }

    /**
     * Runs a producer and a consumer on separate nodes through the outages, each lasting until the producer saw
     * {@code failedSendsPerOutage} sends fail, and waits for deliveries to resume after each.
     */
    private Run runThrough(String scenario, List<Outage> outages, int failedSendsPerOutage) throws Exception {
        RedisServerProcess redisServer = redisProcess();
        syncEachWrite(redisServer);
        long started = System.nanoTime();
        DeliveryLog deliveryLog = DeliveryLog.inMemory();
        CamelContext consumerNode = startContext(consumer("redis-delay:" + QUEUE + "?visibilityTimeout=2s", deliveryLog));
        var template = startContext().createProducerTemplate();
        List<Long> outagesAt = new ArrayList<>();
        List<Long> downFor = new ArrayList<>();
        Map<String, Long> acknowledged;
        String failures;
        try (PacedProducer producer = new PacedProducer(
                template, "redis-delay:" + QUEUE, "m", RATE, MAX_MESSAGES,
                MAX_DELAY_MILLIS).start()) {
            for (Outage outage : outages) {
                int finishedBefore = deliveryLog.read().finishedCount();
                await("deliveries flow before the outage").atMost(Duration.ofSeconds(60))
                        .until(() -> deliveryLog.read().finishedCount() >= finishedBefore + DELIVERIES_BETWEEN_OUTAGES);

                int failedBefore = producer.failedAttempts();
                long outageAt = System.currentTimeMillis();
                outagesAt.add(outageAt);
                if (outage == Outage.STOP) {
                    redisServer.stop();
                } else {
                    redisServer.kill();
                }
                await("sends failed while Redis is down").atMost(Duration.ofSeconds(90))
                        .until(() -> producer.failedAttempts() >= failedBefore + failedSendsPerOutage);
                downFor.add(System.currentTimeMillis() - outageAt);
                redisServer.restart();
                syncEachWrite(redisServer);
            }
            int acknowledgedAtEnd = producer.acknowledgedCount();
            int finishedAtEnd = deliveryLog.read().finishedCount();
            await("sends acknowledged after the last restart").atMost(Duration.ofSeconds(60))
                    .until(() -> producer.acknowledgedCount() >= acknowledgedAtEnd + DELIVERIES_BETWEEN_OUTAGES);
            await("deliveries after the last restart").atMost(Duration.ofSeconds(60))
                    .until(() -> deliveryLog.read().finishedCount() >= finishedAtEnd + DELIVERIES_BETWEEN_OUTAGES);
            producer.stop();
            acknowledged = producer.acknowledged();
            failures = producer.failureSummary();
        }

        deliveryLog.awaitFinished(acknowledged.keySet(), Duration.ofSeconds(60));
        // settles what the consumer has fetched, so late duplicates are counted too
        consumerNode.stop();
        Deliveries deliveries = deliveryLog.read();
        Tally tally = deliveries.tally(acknowledged.keySet()).report(scenario, Duration.ofNanos(System.nanoTime() - started),
                "downMs=" + downFor + " " + failures + " duplicated=" + deliveries.duplicatedIds());
        return new Run(tally, outagesAt, acknowledged);
    }
}
