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
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.internal.QueueKeys;
import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Message;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.redisson.api.RScript;
import org.redisson.api.stream.StreamMessageId;
import org.redisson.api.stream.StreamReadGroupArgs;
import org.redisson.client.codec.StringCodec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class LeaseTest extends RedisDelayTestSupport {

    private final List<Message> deliveries = new CopyOnWriteArrayList<>();

    private RouteBuilder consuming(String uri, long workMillis) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).process(e -> {
                    deliveries.add(e.getMessage().copy());
                    new CountDownLatch(1).await(workMillis, TimeUnit.MILLISECONDS);
                });
            }
        };
    }

    @Test
    void messageLeasedByAConsumerThatDiedIsRedeliveredAfterTheVisibilityTimeout() throws Exception {
        var producer = startContext().createProducerTemplate();
        producer.sendBody("redis-delay:jobs", "job");
        await().atMost(Duration.ofSeconds(5)).until(() -> redis().getStream(key("jobs", "ready")).size() == 1);
        // a consumer that reads the message and dies before acknowledging it
        var taken = redis().getStream(key("jobs", "ready"))
                .readGroup(QueueKeys.GROUP, "crashed-consumer", StreamReadGroupArgs.neverDelivered().count(1));
        assertThat(taken).hasSize(1);

        startContext(consuming("redis-delay:jobs?visibilityTimeout=500", 0));

        await().atMost(Duration.ofSeconds(10)).until(() -> deliveries.size() == 1);
        assertThat(deliveries.get(0).getBody()).isEqualTo("job");
        assertThat(deliveries.get(0).getHeader(RedisDelayConstants.DELIVERY_COUNT)).isEqualTo(2);
        await().atMost(Duration.ofSeconds(5)).until(() -> redis().getMap(key("jobs", "msg")).isEmpty());
    }

    @Test
    void expiredLeaseBehindManyLiveOnesIsTakenOverByAConsumerReadingOneAtATime() throws Exception {
        var context = startContext();
        var producer = context.createProducerTemplate();
        for (int i = 0; i < 25; i++) {
            producer.sendBody("redis-delay:jobs", "busy " + i);
        }
        producer.sendBody("redis-delay:jobs", "stuck");
        var ready = redis().getStream(key("jobs", "ready"));
        await().atMost(Duration.ofSeconds(5)).until(() -> ready.size() == 26);
        // a live consumer holds the first 25 and keeps extending their leases; one that died holds the last
        var busy = ready.readGroup(QueueKeys.GROUP, "busy", StreamReadGroupArgs.neverDelivered().count(25)).keySet()
                .toArray(new StreamMessageId[0]);
        assertThat(ready.readGroup(QueueKeys.GROUP, "crashed", StreamReadGroupArgs.neverDelivered().count(1))).hasSize(1);
        var keeper = Executors.newSingleThreadScheduledExecutor();
        try {
            keeper.scheduleAtFixedRate(() -> ready.fastClaim(QueueKeys.GROUP, "busy", 0, TimeUnit.MILLISECONDS, busy), 0, 100,
                    TimeUnit.MILLISECONDS);

            // a polling consumer fetches one message at a time, so each take-over looks at few pending entries
            Object body = context.createConsumerTemplate().receiveBody("redis-delay:jobs?visibilityTimeout=500", 10_000);

            assertThat(body).isEqualTo("stuck");
        } finally {
            keeper.shutdownNow();
            assertThat(keeper.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void aConsumerWithAShorterVisibilityTimeoutDoesNotTakeOverALeaseAnotherStillExtends() throws Exception {
        // the first consumer extends its lease every 20 s, the second looks for leases idle longer than 500 ms every
        // 250 ms: while the first exchange runs, its lease is idle that long several times over
        var producer = startContext(consuming("redis-delay:jobs?visibilityTimeout=60s", 1500)).createProducerTemplate();
        producer.sendBody("redis-delay:jobs", "slow job");
        await().atMost(Duration.ofSeconds(5)).until(() -> deliveries.size() == 1);

        startContext(consuming("redis-delay:jobs?visibilityTimeout=500", 0));

        // the first exchange ends 1.5 s after it began, and its acknowledgement follows at once
        await().atMost(Duration.ofSeconds(10)).until(() -> redis().getMap(key("jobs", "msg")).isEmpty());
        assertThat(deliveries).as("deliveries of the one message").hasSize(1);
    }

    @Test
    void slowButHealthyExchangeKeepsItsLeaseAndIsNotDeliveredTwice() throws Exception {
        String uri = "redis-delay:jobs?visibilityTimeout=600";
        var producer = startContext(consuming(uri, 2500)).createProducerTemplate();
        startContext(consuming(uri, 2500));

        producer.sendBody("redis-delay:jobs", "slow job");

        await().atMost(Duration.ofSeconds(10)).until(() -> redis().getMap(key("jobs", "msg")).isEmpty());
        assertThat(deliveries).hasSize(1);
    }

    @Test
    void stoppedConsumerLeavesTheConsumerGroup() throws Exception {
        var node = startContext(consuming("redis-delay:jobs", 0));
        node.createProducerTemplate().sendBody("redis-delay:jobs", "job");
        await().atMost(Duration.ofSeconds(5)).until(() -> deliveries.size() == 1);
        assertThat(redis().getStream(key("jobs", "ready")).listConsumers(QueueKeys.GROUP)).hasSize(1);

        node.stop();

        assertThat(redis().getStream(key("jobs", "ready")).listConsumers(QueueKeys.GROUP)).isEmpty();
    }

    @Test
    void consumersOfGoneProcessesAreForgottenOnceTheyHoldNothing() throws Exception {
        var producer = startContext().createProducerTemplate();
        producer.sendBody("redis-delay:jobs", "job");
        var ready = redis().getStream(key("jobs", "ready"));
        await().atMost(Duration.ofSeconds(5)).until(() -> ready.size() == 1);
        ready.createConsumer(QueueKeys.GROUP, "gone-process");

        // it forgets consumers that hold nothing once they are idle for ten of its visibility timeouts: 1 s
        startContext(consuming("redis-delay:jobs?visibilityTimeout=100", 0));

        await().atMost(Duration.ofSeconds(10)).until(() -> deliveries.size() == 1 && ready.listConsumers(QueueKeys.GROUP)
                .stream().noneMatch(c -> c.getName().equals("gone-process")));
    }

    @Test
    void messageWhoseConsumersKeepDyingGoesToTheDeadLetterQueueLoggedWithTheDeliveriesItHad() throws Exception {
        var producer = startContext().createProducerTemplate();
        producer.sendBody("redis-delay:jobs", "poison");
        var ready = redis().getStream(key("jobs", "ready"));
        await().atMost(Duration.ofSeconds(5)).until(() -> ready.size() == 1);
        // two consumers took it and died
        ready.readGroup(QueueKeys.GROUP, "crashed-1", StreamReadGroupArgs.neverDelivered().count(1));
        await().atMost(Duration.ofSeconds(5)).until(() -> !ready.autoClaim(QueueKeys.GROUP, "crashed-2", 50,
                TimeUnit.MILLISECONDS, org.redisson.api.stream.StreamMessageId.MIN, 1).getMessages().isEmpty());
        List<Message> dead = new CopyOnWriteArrayList<>();

        try (LogLines settlement = LogLines.of(Settlement.class)) {
            startContext(consuming("redis-delay:jobs?visibilityTimeout=200&maxDeliveries=2", 0), new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:jobs.dead").process(e -> dead.add(e.getMessage().copy()));
                }
            });

            await().atMost(Duration.ofSeconds(10)).until(() -> dead.size() == 1);
            assertThat(deliveries).as("never routed a third time").isEmpty();
            assertThat(dead.get(0).getHeader(RedisDelayConstants.LAST_ERROR, String.class))
                    .contains("delivered 2 times without being acknowledged");
            // the ERROR counts the deliveries there were, as many as maxDeliveries allows, not the fetch that stopped
            // a third one; it is logged once the move returns, which may be after the dead letter was routed
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> settlement.lines().stream().anyMatch(line -> line.contains("moved to dead-letter queue")));
            assertThat(settlement.lines()).filteredOn(line -> line.contains("moved to dead-letter queue")).singleElement()
                    .asString().contains(" after 2 deliveries: ");
        }
    }

    /**
     * The lease timer of a node is late (a long GC pause, say) by more than the visibility timeout: the node's own next
     * look for expired leases takes over the lease of its running exchange, which goes on. That take-over is no
     * delivery: when the node then dies before the exchange settles, the next node counts the one delivery there was.
     */
    @Test
    void aConsumerThatTookOverTheExpiredLeaseOfItsOwnRunningExchangeAndThenDiedLeftOneDeliveryCounted()
            throws Exception {
        String uri = "redis-delay:jobs?visibilityTimeout=500&maxDeliveries=2";
        CamelContext first = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                // its second thread goes on fetching (and looking for expired leases) while the exchange runs
                from(uri + "&concurrentConsumers=2").process(e -> {
                    deliveries.add(e.getMessage().copy());
                    // runs until the stop below cuts it off
                    new CountDownLatch(1).await(20, TimeUnit.SECONDS);
                });
            }
        });
        first.getShutdownStrategy().setTimeout(1);
        first.start();
        first.createProducerTemplate().sendBody("redis-delay:jobs", "long job");
        await().atMost(Duration.ofSeconds(5)).until(() -> deliveries.size() == 1);
        var ready = redis().getStream(key("jobs", "ready"));

        // the lease timer stalls: the lease is no longer extended, and expires after 500 ms
        CountDownLatch stalled = new CountDownLatch(1);
        CountDownLatch resume = new CountDownLatch(1);
        ((RedisDelayEndpoint) first.getEndpoint(uri + "&concurrentConsumers=2")).leaseTimer().execute(() -> {
            stalled.countDown();
            try {
                resume.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            assertThat(stalled.await(5, TimeUnit.SECONDS)).isTrue();
            long stalledAt = System.nanoTime();
            // nothing but a take-over claims the entry while the timer stalls: its idle time then falls behind the stall
            await("the consumer's own look took the lease over").atMost(Duration.ofSeconds(10))
                    .until(() -> ready.listPending(QueueKeys.GROUP, StreamMessageId.MIN, StreamMessageId.MAX, 1).get(0)
                            .getIdleTime() + 100 < TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stalledAt));
        } finally {
            resume.countDown();
        }
        assertThat(deliveries).as("the exchange goes on, not delivered again").hasSize(1);

        // the node dies before the exchange settles: the stop cuts it off, its lease left to expire
        first.stop();
        List<Message> dead = new CopyOnWriteArrayList<>();
        startContext(consuming(uri, 0), new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs.dead").process(e -> dead.add(e.getMessage().copy()));
            }
        });

        await().atMost(Duration.ofSeconds(10)).until(() -> deliveries.size() == 2 || !dead.isEmpty());
        assertThat(dead).as("maxDeliveries=2: not dead-lettered after one delivery").isEmpty();
        assertThat(deliveries.get(1).getHeader(RedisDelayConstants.DELIVERY_COUNT)).as("the second delivery").isEqualTo(2);
    }

    @Test
    void aMessageThatFailedBeforeItsLeaseExpiredIsDeadLetteredNamingItsLastFailure() throws Exception {
        CamelContext first = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from("redis-delay:jobs?retrySchedule=1s&maxDeliveries=2").routeId("jobs").process(e -> {
                    deliveries.add(e.getMessage().copy());
                    throw new IllegalStateException("boom");
                });
            }
        });
        first.createProducerTemplate().sendBody("redis-delay:jobs", "job");
        await().atMost(Duration.ofSeconds(5)).until(() -> deliveries.size() == 1);
        // the route stops well within the retry's 1 s (about 200 ms), so the retry is not read by it
        first.getRouteController().stopRoute("jobs");
        // its retry comes back into the stream 1 s later, where a consumer that then dies reads it
        var ready = redis().getStream(key("jobs", "ready"));
        await().atMost(Duration.ofSeconds(5)).until(() -> !ready
                .readGroup(QueueKeys.GROUP, "crashed-consumer", StreamReadGroupArgs.neverDelivered().count(1)).isEmpty());
        List<Message> dead = new CopyOnWriteArrayList<>();

        startContext(consuming("redis-delay:jobs?visibilityTimeout=500&maxDeliveries=2", 0), new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs.dead").process(e -> dead.add(e.getMessage().copy()));
            }
        });

        await().atMost(Duration.ofSeconds(10)).until(() -> dead.size() == 1);
        assertThat(deliveries).as("maxDeliveries=2: one failed, one lost with its consumer").hasSize(1);
        assertThat(dead.get(0).getHeader(RedisDelayConstants.LAST_ERROR, String.class))
                .contains("not acknowledged within the visibility timeout").contains("IllegalStateException: boom");
    }

    /**
     * A slow consumer's lease expired (its process paused longer than the visibility timeout), another consumer took
     * the message over and delivered it; then the slow consumer's own exchange fails. Nothing is lost: the
     * at-least-once contract at work, not a message Redis lost.
     */
    @Test
    void aFailedDeliveryWhoseLeaseAnotherConsumerTookOverAndSettledIsNotWarnedOfAsLost() throws Exception {
        CountDownLatch settledElsewhere = new CountDownLatch(1);
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from("redis-delay:jobs?visibilityTimeout=60s").process(e -> {
                    deliveries.add(e.getMessage().copy());
                    settledElsewhere.await(20, TimeUnit.SECONDS);
                    throw new IllegalStateException("shop timed out");
                });
            }
        }).createProducerTemplate().sendBodyAndHeader("redis-delay:jobs", "job", RedisDelayConstants.MESSAGE_ID, "job-1");
        await().atMost(Duration.ofSeconds(5)).until(() -> deliveries.size() == 1);
        var ready = redis().getStream(key("jobs", "ready"));
        var lease = ready.listPending(QueueKeys.GROUP, StreamMessageId.MIN, StreamMessageId.MAX, 1).get(0);
        // the lease expired (emulated with a delivery time of 1970; the lease timer extends it again only 20 s later)
        redis().getScript(StringCodec.INSTANCE).eval(RScript.Mode.READ_WRITE,
                "return redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[2], 0, ARGV[3], 'TIME', 0, 'JUSTID')",
                RScript.ReturnType.LIST, List.of(key("jobs", "ready")), QueueKeys.GROUP, lease.getConsumerName(),
                lease.getId().toString());
        startContext(consuming("redis-delay:jobs?visibilityTimeout=500", 0));
        await("taken over and settled").atMost(Duration.ofSeconds(10))
                .until(() -> deliveries.size() == 2 && redis().getMap(key("jobs", "msg")).isEmpty());

        try (LogLines log = LogLines.of(Settlement.class)) {
            settledElsewhere.countDown();
            await("the failure logged").atMost(Duration.ofSeconds(10))
                    .until(() -> log.lines().stream().anyMatch(line -> line.contains("job-1")));
            assertThat(log.lines()).filteredOn(line -> line.contains("job-1")).singleElement().asString()
                    .startsWith("INFO").contains("shop timed out", "another consumer took it over");
        }
    }
}
