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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

import io.github.camelredisdelay.RedisDelayConstants;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.internal.QueueKeys;
import io.github.camelredisdelay.test.LogLines;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.support.service.ServiceSupport;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Redis holds every write for longer than the client waits for a reply ({@code CLIENT PAUSE ... WRITE}, as a
 * {@code FAILOVER} or an operator does): the consumer's reads, writes themselves ({@code XREADGROUP}), run once the
 * pause ends, after the client gave up on them.
 */
class PausedRedisReadTest extends FaultTestSupport {

    /** Longer than a read with its retry waits (the client's 3 s timeout, one retry 200 ms later). */
    private static final long PAUSE_MS = 8_000;
    /**
     * Longer than the client waits for one attempt of a read (3 s), shorter than for the attempt and its retry (3 s,
     * 200 ms, 3 s): the client sends a read again, and Redis answers the second attempt once it has run the first.
     */
    private static final long RETRIED_READ_PAUSE_MS = 4_800;

    @Test
    void aMessageThatFellDueWhileRedisHeldWritesReachesTheRouteSoonAfterNotAfterTheVisibilityTimeout() throws Exception {
        RedisServerProcess server = redisProcess();
        List<String> routed = new CopyOnWriteArrayList<>();
        List<Integer> deliveryCounts = new CopyOnWriteArrayList<>();
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:held?visibilityTimeout=60s").routeId("held").process(e -> {
                    routed.add(e.getMessage().getBody(String.class));
                    deliveryCounts.add(e.getMessage().getHeader(RedisDelayConstants.DELIVERY_COUNT, Integer.class));
                });
            }
        }).createProducerTemplate().sendBodyAndHeader("redis-delay:held", "m1", RedisDelayConstants.DELAY, 1_500);

        server.command("CLIENT", "PAUSE", String.valueOf(PAUSE_MS), "WRITE");

        // what the consumer sent during the pause runs when it ends, whether or not the client still waits for it
        awaitRoutedSoonAfterThePause(server, "held", routed);
        assertThat(routed).containsExactly("m1");
        assertThat(deliveryCounts).as("its first delivery").containsExactly(1);
    }

    @Test
    void aMessageABlockingReadTookWhileRedisHeldWritesReachesTheRouteSoonAfterNotAfterTheVisibilityTimeout()
            throws Exception {
        RedisServerProcess server = redisProcess();
        List<String> routed = new CopyOnWriteArrayList<>();
        List<Integer> deliveryCounts = new CopyOnWriteArrayList<>();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:held?visibilityTimeout=60s").routeId("held").process(e -> {
                    routed.add(e.getMessage().getBody(String.class));
                    deliveryCounts.add(e.getMessage().getHeader(RedisDelayConstants.DELIVERY_COUNT, Integer.class));
                });
            }
        });
        context.getRouteController().suspendRoute("held");
        // a blocking read the consumer began before its suspension (250 ms) would take m1 before the pause below, and
        // hand it back: none is under way once no client has waited in Redis for longer than such a read lasts
        await("the suspended consumer's last read over").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .during(Duration.ofMillis(500)).until(() -> noClientBlocked(server));
        context.createProducerTemplate().sendBody("redis-delay:held", "m1");
        await("m1 ready").atMost(Duration.ofSeconds(10))
                .until(() -> "1".equals(server.command("XLEN", key("held", "ready"))));

        // m1's ready notice makes the queue busy, so the resumed consumer's first read blocks in Redis (250 ms): the client
        // gives such a read up 3 s after its block as if it found nothing, and Redis runs it, taking m1, when the pause
        // ends; the consumer's next read is answered then
        server.command("CLIENT", "PAUSE", String.valueOf(PAUSE_MS), "WRITE");
        assertThat(server.command("XPENDING", key("held", "ready"), QueueKeys.GROUP).lines().findFirst())
                .as("m1 unread when the pause began").contains("0");
        context.getRouteController().resumeRoute("held");

        awaitRoutedSoonAfterThePause(server, "held", routed);
        assertThat(routed).containsExactly("m1");
        assertThat(deliveryCounts).as("its first delivery").containsExactly(1);
    }

    @Test
    void theRestOfABatchWhoseHandBackRedisHeldReachesTheRouteSoonAfterThePauseNotAfterTheVisibilityTimeout()
            throws Exception {
        RedisServerProcess server = redisProcess();
        List<String> routed = new CopyOnWriteArrayList<>();
        List<Integer> deliveryCounts = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> suspension = new CompletableFuture<>();
        AtomicLong pausedAt = new AtomicLong();
        // m1's exchange suspends its route (Camel's default CompleteCurrentTaskOnly: the rest of the batch goes back) and
        // has Redis hold writes, so the hand-back of m2, read with m1, waits longer than the client waits for a reply
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:batch?maxMessagesPerPoll=2&visibilityTimeout=60s").routeId("batch").process(e -> {
                    routed.add(e.getMessage().getBody(String.class));
                    deliveryCounts.add(e.getMessage().getHeader(RedisDelayConstants.DELIVERY_COUNT, Integer.class));
                    if (routed.size() == 1) {
                        suspension.completeAsync(() -> suspendRoute(e.getContext(), "batch"));
                        ServiceSupport consumer = (ServiceSupport) e.getContext().getRoute("batch").getConsumer();
                        await("the suspension begun").pollInterval(Duration.ofMillis(10)).atMost(Duration.ofSeconds(10))
                                .until(consumer::isSuspendingOrSuspended);
                        pausedAt.set(System.nanoTime());
                        server.command("CLIENT", "PAUSE", String.valueOf(PAUSE_MS), "WRITE");
                    }
                });
            }
        });
        context.getRouteController().suspendRoute("batch");
        context.createProducerTemplate().sendBody("redis-delay:batch", "m1");
        context.createProducerTemplate().sendBody("redis-delay:batch", "m2");
        await("m1, m2 ready").atMost(Duration.ofSeconds(10))
                .until(() -> "2".equals(server.command("XLEN", key("batch", "ready"))));
        context.getRouteController().resumeRoute("batch");

        suspension.get(30, TimeUnit.SECONDS);
        assertThat(routed).containsExactly("m1");
        context.getRouteController().resumeRoute("batch");
        awaitRoutedSoonAfterThePause(server, "batch", routed, "m2", pausedAt.get());
        assertThat(routed).containsExactly("m1", "m2");
        assertThat(deliveryCounts).as("first deliveries: the hand-back took its delivery back").containsExactly(1, 1);
    }

    @Test
    void messagesTheFirstAttemptOfARetriedReadTookReachTheRouteNotTheDeadLetterQueue() throws Exception {
        RedisServerProcess server = redisProcess();
        List<String> routed = new CopyOnWriteArrayList<>();
        List<Integer> deliveryCounts = new CopyOnWriteArrayList<>();
        List<String> deadLettered = new CopyOnWriteArrayList<>();
        // a polling consumer never blocks in Redis: the client sends a read it gave up on again; a look for expired
        // leases is due every 7.5 s only, so the read after the resume below is a plain XREADGROUP
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:retried?consumerType=polling&pollInterval=100&visibilityTimeout=15s&maxDeliveries=1")
                        .routeId("retried").process(e -> {
                            routed.add(e.getMessage().getBody(String.class));
                            deliveryCounts.add(e.getMessage().getHeader(RedisDelayConstants.DELIVERY_COUNT, Integer.class));
                        });
                from("redis-delay:retried.dead").process(e -> deadLettered.add(e.getMessage().getBody(String.class)));
            }
        });
        // the consumer's first poll (which looks for expired leases) is over, and m0 acknowledged
        context.createProducerTemplate().sendBody("redis-delay:retried", "m0");
        await("m0 routed and acknowledged").atMost(Duration.ofSeconds(10))
                .until(() -> routed.contains("m0") && "0".equals(server.command("XLEN", key("retried", "ready"))));
        context.getRouteController().suspendRoute("retried");
        List<String> bodies = IntStream.rangeClosed(1, 3).mapToObj(i -> "m" + i).toList();
        bodies.forEach(body -> context.createProducerTemplate().sendBody("redis-delay:retried", body));
        await("m1..m3 ready").atMost(Duration.ofSeconds(10))
                .until(() -> "3".equals(server.command("XLEN", key("retried", "ready"))));

        // the resumed consumer's read waits in Redis; the client gives its first attempt up after 3 s and sends it
        // again: Redis runs both when the pause ends, the first taking m1..m3, and answers the second, which finds none
        server.command("CLIENT", "PAUSE", String.valueOf(RETRIED_READ_PAUSE_MS), "WRITE");
        context.getRouteController().resumeRoute("retried");

        // before the visibility timeout (15 s) could let another look take them over, counting a delivery
        await("m1..m3 routed or dead-lettered").atMost(Duration.ofMillis(RETRIED_READ_PAUSE_MS + 40_000))
                .until(() -> routed.size() + deadLettered.size() == 4);
        assertThat(deadLettered).as("dead-lettered without a delivery to the route").isEmpty();
        assertThat(routed).containsExactlyInAnyOrder("m0", "m1", "m2", "m3");
        assertThat(deliveryCounts).as("first deliveries").containsOnly(1);
    }

    @Test
    void aDeliveryLeftToItsLeaseStaysCountedWhenALaterReadIsLost() throws Exception {
        RedisServerProcess server = redisProcess();
        List<Integer> deliveryCounts = new CopyOnWriteArrayList<>();
        List<String> deadLettered = new CopyOnWriteArrayList<>();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:left?visibilityTimeout=15s&maxDeliveries=1").routeId("left").process(e -> deliveryCounts
                        .add(e.getMessage().getHeader(RedisDelayConstants.DELIVERY_COUNT, Integer.class)))
                        .to("seda:full?size=1&discardWhenFull=true");
                from("redis-delay:left.dead").process(e -> deadLettered.add(e.getMessage().getBody(String.class)));
            }
        });
        // nothing consumes seda:full: this fills it, and the queue drops the copies handed to it
        context.createProducerTemplate().sendBody("seda:full?size=1", "filler");
        try (LogLines settlement = LogLines.of("io.github.camelredisdelay.Settlement")) {
            context.createProducerTemplate().sendBody("redis-delay:left", "m1");
            // once the garbage collector finds the dropped copy unreachable, the delivery is left to its lease, to be
            // delivered again, counted, after the visibility timeout
            await("m1's dropped copy noticed").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200))
                    .until(() -> {
                        System.gc();
                        return settlement.lines().stream().anyMatch(line -> line.contains("was dropped before it completed"));
                    });
        }
        assertThat(deliveryCounts).containsExactly(1);

        // the consumer's next read takes longer than the client's response timeout: it may have been lost, and the read
        // after it looks for what lost reads left with the consumer
        server.command("CLIENT", "PAUSE", String.valueOf(RETRIED_READ_PAUSE_MS), "WRITE");

        // maxDeliveries=1: once its lease expired (15 s), m1 goes to the dead-letter queue
        await("m1 dead-lettered or routed again").atMost(Duration.ofMillis(RETRIED_READ_PAUSE_MS + 40_000))
                .until(() -> !deadLettered.isEmpty() || deliveryCounts.size() > 1);
        assertThat(deliveryCounts).as("deliveries to the route, as maxDeliveries=1 allows").containsExactly(1);
        assertThat(deadLettered).containsExactly("m1");
    }

    /**
     * Waits for m1 to reach the route within 12 s of the end of a {@link #PAUSE_MS} pause that begins now; failing
     * that, says what the consumer group holds pending in Redis and its consumers, for the log of the failed run.
     */
    private void awaitRoutedSoonAfterThePause(RedisServerProcess server, String queue, List<String> routed) {
        awaitRoutedSoonAfterThePause(server, queue, routed, "m1", System.nanoTime());
    }

    /** Waits for {@code body} to reach the route within 12 s of the end of a {@link #PAUSE_MS} pause begun then. */
    private void awaitRoutedSoonAfterThePause(
            RedisServerProcess server, String queue, List<String> routed, String body,
            long pausedAtNanos) {
        long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - pausedAtNanos);
        try {
            await(body + " routed within 12 s of the pause's end")
                    .atMost(Duration.ofMillis(Math.max(1, PAUSE_MS + 12_000 - waited)))
                    .until(() -> routed.contains(body));
        } catch (ConditionTimeoutException e) {
            String stream = key(queue, "ready");
            throw new AssertionError(
                    e.getMessage() + "; pending in the group: "
                                     + server.command("XPENDING", stream, QueueKeys.GROUP, "-", "+", "10")
                                     + "; its consumers: " + server.command("XINFO", "CONSUMERS", stream, QueueKeys.GROUP),
                    e);
        }
    }

    /**
     * Whether no client waits in Redis in a blocking command ({@code INFO clients}' {@code blocked_clients}). Not the
     * consumers' idle time of {@code XINFO CONSUMERS}: Redis 7.0 and older reset it only when a read brings entries.
     */
    private static boolean noClientBlocked(RedisServerProcess server) {
        return server.command("INFO", "clients").lines().anyMatch("blocked_clients:0"::equals);
    }

    /** Suspends the route through the context's route controller, as a task that may not throw checked exceptions. */
    private static Void suspendRoute(CamelContext context, String routeId) {
        try {
            context.getRouteController().suspendRoute(routeId);
            return null;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
