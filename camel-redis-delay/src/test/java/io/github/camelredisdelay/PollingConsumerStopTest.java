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
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.IntStream;

import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.internal.QueueKeys;
import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.NeedsRedisProcess;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.apache.camel.CamelContext;
import org.apache.camel.ConsumerTemplate;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.redisson.api.stream.StreamConsumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Stopping a {@code consumerType=polling} consumer while its poll is under way. Redis holds the poll's read with
 * {@code CLIENT PAUSE ... WRITE}, as a slow link or a busy server would, so the stop comes in the middle of it.
 */
@NeedsRedisProcess
@CamelSide
class PollingConsumerStopTest extends RedisDelayTestSupport {

    private static final String POLLED = "redis-delay:polled?consumerType=polling&pollInterval=10&maxMessagesPerPoll=1"
                                         + "&maxDeliveries=1&visibilityTimeout=1s";

    private final List<String> routed = new CopyOnWriteArrayList<>();
    /** What the node that stopped routed: the first message only; what its read under way fetched goes back. */
    private final List<String> routedByStoppedNode = new CopyOnWriteArrayList<>();
    private final List<String> deadLettered = new CopyOnWriteArrayList<>();

    /**
     * The component page: a stopping consumer "stops fetching, lets a read under way bring its batch" and hands back
     * what it no longer routes (Camel's default {@code CompleteCurrentTaskOnly}). What the read fetches goes back to
     * the queue, its delivery uncounted, not left pending to the stopped consumer until its lease runs out, which with
     * {@code maxDeliveries=1} would dead-letter it unrouted.
     */
    @Test
    void aGracefulStopDuringAReadLetsTheReadEndAndHandsBackWhatItFetched() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(POLLED).routeId("polled").autoStartup(false).process(e -> {
                    routed.add(e.getMessage().getBody(String.class));
                    routedByStoppedNode.add(e.getMessage().getBody(String.class));
                    if (routed.size() == 1) {
                        release.await(10, TimeUnit.SECONDS);
                    }
                });
            }
        });
        ProducerTemplate producer = node.createProducerTemplate();
        List<String> bodies = IntStream.rangeClosed(1, 5).mapToObj(i -> "m" + i).toList();
        bodies.forEach(body -> producer.sendBody("redis-delay:polled", body));
        await().atMost(Duration.ofSeconds(10)).until(() -> redis().getStream(key("polled", "ready")).size() == 5);
        node.getRouteController().startRoute("polled");
        await().atMost(Duration.ofSeconds(10)).until(() -> routed.size() == 1);

        holdWrites();
        release.countDown();
        // the poll acknowledges the first message and reads the next in one call, which Redis holds
        await().atMost(Duration.ofSeconds(5)).until(PollingConsumerStopTest::aThreadIsReading);
        List<String> stopLog;
        try (LogLines log = LogLines.of(RedisDelayScheduledPollConsumer.class)) {
            node.getRouteController().stopRoute("polled");
            stopLog = log.lines();
        }

        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:polled?maxDeliveries=1&visibilityTimeout=1s")
                        .process(e -> routed.add(e.getMessage().getBody(String.class)));
                from("redis-delay:polled.dead").process(e -> deadLettered.add(e.getMessage().getBody(String.class)));
            }
        });
        await().atMost(Duration.ofSeconds(15))
                .until(() -> routed.size() + deadLettered.size() >= bodies.size());
        assertThat(deadLettered).as("dead-lettered without reaching a route").isEmpty();
        assertThat(routed).containsExactlyInAnyOrderElementsOf(bodies);
        assertThat(routedByStoppedNode).as("routed by the node that stopped").containsExactly("m1");
        assertThat(stopLog).as("the stop's log: Redis answered all along").noneMatch(line -> line.contains("reach Redis"));
    }

    /**
     * A {@code ConsumerTemplate} stopped while one of its receives waits for Redis' answer to a read: what that read
     * brings after the stop goes back to the queue, its delivery uncounted, and the receive returns {@code null}, as a
     * route's consumer hands back what a read under way at its stop brings. Before, the receive returned the message to
     * a caller whose consumer had stopped (an application shutting down): it stayed leased to the stopped consumer for
     * {@code visibilityTimeout}, and then counted a delivery that never reached anyone.
     */
    @Test
    void aReceiveUnderWayWhenItsConsumerStopsReturnsNothingAndItsMessageGoesBack() throws Exception {
        String uri = "redis-delay:received?visibilityTimeout=30s";
        CamelContext node = startContext();
        ConsumerTemplate receiver = node.createConsumerTemplate();
        // started, with its consumer group, before Redis holds the writes
        assertThat(receiver.receiveNoWait(uri)).isNull();
        node.createProducerTemplate().sendBody(uri, "m1");
        await().atMost(Duration.ofSeconds(10)).until(() -> redis().getStream(key("received", "ready")).size() == 1);

        CompletableFuture<Exchange> receive = receiveWhileRedisHoldsWrites(receiver, uri);
        receiver.stop();
        await().atMost(Duration.ofSeconds(10)).until(receive::isDone);

        assertReturnedNothingAndLeftItsMessage(receive, "received", uri);
    }

    /**
     * A {@code ConsumerTemplate} whose receive waits for Redis' answer to a read when the context stops, on a queue a
     * route consumes too: Camel stops the endpoint they share first, which stops the receiver; what the read brings
     * goes back to the queue, its delivery uncounted, and the receiver leaves the consumer group.
     */
    @Test
    void aReceiveUnderWayWhenTheContextStopsItsEndpointFirstReturnsNothingAndItsMessageGoesBack() throws Exception {
        String uri = "redis-delay:sharedStop?visibilityTimeout=30s";
        CamelContext node = startContext();
        ConsumerTemplate receiver = node.createConsumerTemplate();
        assertThat(receiver.receiveNoWait(uri)).isNull();
        node.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).routeId("shared").autoStartup(false).log("${body}");
            }
        });
        node.createProducerTemplate().sendBody(uri, "m1");
        await().atMost(Duration.ofSeconds(10)).until(() -> redis().getStream(key("sharedStop", "ready")).size() == 1);

        CompletableFuture<Exchange> receive = receiveWhileRedisHoldsWrites(receiver, uri);
        List<String> stopLog;
        try (LogLines services = LogLines.of("org.apache.camel.impl.engine.InternalServiceManager")) {
            node.stop();
            stopLog = services.lines();
        }
        await().atMost(Duration.ofSeconds(10)).until(receive::isDone);

        assertThat(stopLog).noneMatch(line -> line.contains("PollingConsumer"));
        assertReturnedNothingAndLeftItsMessage(receive, "sharedStop", uri);
    }

    /** The consumers of the queue's group, once the stopped receiver left (at most 10 s). */
    private List<String> membersOnceLeft(String queue) {
        Supplier<List<String>> members = () -> redis().getStream(key(queue, "ready"))
                .listConsumers(QueueKeys.GROUP).stream().map(StreamConsumer::getName).toList();
        try {
            return await().atMost(Duration.ofSeconds(10)).until(members::get,
                    names -> names.stream().allMatch("handed-back"::equals));
        } catch (ConditionTimeoutException e) {
            return members.get();
        }
    }

    /**
     * The receive under way at the stop returned nothing, its receiver left the group of {@code queue}, and its message
     * m1 is received again at once, its delivery uncounted.
     */
    private void assertReturnedNothingAndLeftItsMessage(CompletableFuture<Exchange> receive, String queue, String uri)
            throws Exception {
        assertThat(receive.get()).as("what the receive under way at the stop returned").isNull();
        List<String> members = membersOnceLeft(queue);
        Exchange again = startContext().createConsumerTemplate().receive(uri, 5000);
        assertThat(again).as("received again within 5 s (visibilityTimeout is 30 s)").isNotNull();
        assertThat(again.getMessage().getBody()).isEqualTo("m1");
        assertThat(again.getMessage().getHeader(RedisDelayConstants.DELIVERY_COUNT)).isEqualTo(1);
        assertThat(members).as("members of the group once the receiver stopped: it left").containsOnly("handed-back");
    }

    /**
     * Has Redis hold the clients' writes for 1.5 s: shorter than the client's response timeout (3 s), so a read waits
     * for Redis rather than failing.
     */
    private static void holdWrites() {
        RedisServerProcess server = RedisServerExtension.process()
                .orElseThrow(() -> new IllegalStateException("this test pauses the clients of its private redis-server"));
        server.command("CLIENT", "PAUSE", "1500", "WRITE");
    }

    /** A {@code receiveNoWait} whose read Redis holds ({@link #holdWrites}), once it is under way. */
    private static CompletableFuture<Exchange> receiveWhileRedisHoldsWrites(ConsumerTemplate receiver, String uri) {
        holdWrites();
        CompletableFuture<Exchange> receive = CompletableFuture.supplyAsync(() -> receiver.receiveNoWait(uri));
        await().atMost(Duration.ofSeconds(5)).until(PollingConsumerStopTest::aThreadIsReading);
        return receive;
    }

    private static boolean aThreadIsReading() {
        return Thread.getAllStackTraces().values().stream()
                .anyMatch(stack -> Arrays.stream(stack).anyMatch(frame -> frame.getClassName().equals(Deliverer.class.getName())
                        && frame.getMethodName().equals("fetch")));
    }
}
