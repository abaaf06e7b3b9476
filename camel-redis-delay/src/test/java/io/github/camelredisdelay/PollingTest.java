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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.CommandStats;
import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.ConsumerTemplate;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.redisson.api.redisnode.RedisMaster;
import org.redisson.api.redisnode.RedisNode;
import org.redisson.api.redisnode.RedisNodes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@CamelSide
class PollingTest extends RedisDelayTestSupport {

    @Test
    void pollingConsumerDrainsABacklogWithoutWaitingAnIntervalBetweenBatches() throws Exception {
        ProducerTemplate producer = startContext().createProducerTemplate();
        for (int i = 0; i < 100; i++) {
            producer.sendBody("redis-delay:orders", "m" + i);
        }
        List<String> received = new CopyOnWriteArrayList<>();

        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders?consumerType=polling&pollInterval=1h&maxMessagesPerPoll=10")
                        .process(e -> received.add(e.getMessage().getBody(String.class)));
            }
        });

        await().atMost(Duration.ofSeconds(15)).until(() -> received.size() == 100);
        assertThat(received).doesNotHaveDuplicates();
    }

    @Test
    void pollingConsumerRetriesFailedExchanges() throws Exception {
        List<Integer> counts = new CopyOnWriteArrayList<>();
        ProducerTemplate producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from("redis-delay:orders?consumerType=polling&pollInterval=100&retrySchedule=100").process(e -> {
                    counts.add(e.getMessage().getHeader(RedisDelayConstants.DELIVERY_COUNT, Integer.class));
                    if (counts.size() == 1) {
                        throw new IllegalStateException("first try fails");
                    }
                });
            }
        }).createProducerTemplate();

        producer.sendBody("redis-delay:orders", "x");

        await().atMost(Duration.ofSeconds(10)).until(() -> counts.size() == 2);
        assertThat(counts).containsExactly(1, 2);
    }

    @Test
    void consumerTemplateReceivesDueMessagesAndAcknowledgesOnDone() throws Exception {
        CamelContext node = startContext();
        ProducerTemplate producer = node.createProducerTemplate();
        ConsumerTemplate consumer = node.createConsumerTemplate();
        assertThat(consumer.receiveNoWait("redis-delay:orders")).isNull();
        producer.sendBody("redis-delay:orders?delay=300", "later");
        producer.sendBody("redis-delay:orders", "now");

        String first = consumer.receiveBody("redis-delay:orders", 5000, String.class);
        Exchange second = consumer.receive("redis-delay:orders", 5000);

        assertThat(first).isEqualTo("now");
        assertThat(second.getMessage().getBody()).isEqualTo("later");
        assertThat(redis().getMap(key("orders", "msg")).size()).as("not acknowledged before doneUoW").isEqualTo(1);
        consumer.doneUoW(second);
        assertThat(redis().getMap(key("orders", "msg")).size()).isZero();
        assertThat(consumer.receive("redis-delay:orders", 200)).isNull();
    }

    @Test
    void aConsumerTemplateReceivingFromAnEndpointThatNamesMigrateFromSaysItDoesNotMigrate() throws Exception {
        ConsumerTemplate consumer = startContext().createConsumerTemplate();

        try (LogLines log = LogLines.of(RedisDelayPollingConsumer.class)) {
            assertThat(consumer.receiveNoWait("redis-delay:orders?migrateFrom=legacy-orders")).isNull();

            assertThat(log.lines()).singleElement().asString().startsWith("WARN")
                    .contains("queue orders", "migrateFrom=legacy-orders", "does not migrate", "from(");
        }
    }

    @Test
    void aReceiveWithTheLongestTimeoutWaitsForAMessage() throws Exception {
        CamelContext node = startContext();
        node.createProducerTemplate().sendBody("redis-delay:orders?delay=300", "later");

        assertThat(node.createConsumerTemplate().receiveBody("redis-delay:orders", Long.MAX_VALUE)).isEqualTo("later");
    }

    @Test
    void aReceivedMessageHandedToASedaRouteIsAcknowledgedWhenThatRouteIsDone() throws Exception {
        List<String> worked = new CopyOnWriteArrayList<>();
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:process").to("seda:work");
                from("seda:work").process(e -> worked.add(e.getMessage().getBody(String.class)));
            }
        });
        ProducerTemplate producer = node.createProducerTemplate();
        ConsumerTemplate consumer = node.createConsumerTemplate();
        producer.sendBody("redis-delay:orders", "order-1");

        Exchange received = consumer.receive("redis-delay:orders?visibilityTimeout=1s", 5000);
        producer.send("direct:process", received);
        consumer.doneUoW(received);

        await().atMost(Duration.ofSeconds(5)).until(() -> worked.size() == 1);
        await().atMost(Duration.ofSeconds(5)).until(() -> redis().getMap(key("orders", "msg")).isEmpty());
    }

    @Test
    void aMessageTakenByPollEnrichIsAcknowledgedWhenItsRouteIsDone() throws Exception {
        List<String> worked = new CopyOnWriteArrayList<>();
        ProducerTemplate producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:take").pollEnrich("redis-delay:orders?visibilityTimeout=1s", 5000)
                        .process(e -> worked.add(e.getMessage().getBody(String.class)));
            }
        }).createProducerTemplate();
        producer.sendBody("redis-delay:orders", "order-1");

        producer.sendBody("direct:take", "take one");

        assertThat(worked).containsExactly("order-1");
        await().atMost(Duration.ofSeconds(5)).until(() -> redis().getMap(key("orders", "msg")).isEmpty());
    }

    @Test
    void aMessageTakenByPollEnrichAndHandedToASedaRouteIsAcknowledgedWhenThatRouteIsDone() throws Exception {
        List<String> worked = new CopyOnWriteArrayList<>();
        ProducerTemplate producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:take").pollEnrich("redis-delay:orders?visibilityTimeout=1s", 5000).to("seda:work");
                from("seda:work").process(e -> worked.add(e.getMessage().getBody(String.class)));
            }
        }).createProducerTemplate();
        producer.sendBody("redis-delay:orders", "order-1");

        producer.sendBody("direct:take", "take one");

        await().atMost(Duration.ofSeconds(5)).until(() -> worked.size() == 1);
        await().atMost(Duration.ofSeconds(5)).until(() -> redis().getMap(key("orders", "msg")).isEmpty());
    }

    /**
     * A route that took a message with {@code pollEnrich} and runs longer than {@code visibilityTimeout}: its lease is
     * kept alive, so a second taker waiting meanwhile (three visibility timeouts) gets nothing, and the message is
     * acknowledged once the first route is done.
     */
    @Test
    void aMessageTakenByPollEnrichKeepsItsLeaseWhileItsRouteRuns() throws Exception {
        List<String> taken = new CopyOnWriteArrayList<>();
        CountDownLatch release = new CountDownLatch(1);
        ProducerTemplate producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:take").pollEnrich("redis-delay:orders?visibilityTimeout=1s", 3000)
                        .process(e -> taken.add(e.getMessage().getBody(String.class)))
                        .filter(e -> taken.size() == 1)
                        .process(e -> assertThat(release.await(10, TimeUnit.SECONDS)).isTrue());
            }
        }).createProducerTemplate();
        producer.sendBody("redis-delay:orders", "order-1");
        CompletableFuture<Object> slowRoute = producer.asyncSendBody("direct:take", "take one");
        await().atMost(Duration.ofSeconds(5)).until(() -> taken.size() == 1);

        producer.sendBody("direct:take", "take another");
        release.countDown();
        slowRoute.get(10, TimeUnit.SECONDS);

        assertThat(taken).as("taken while the first route ran").hasSize(2).filteredOn("order-1"::equals).hasSize(1);
        await().atMost(Duration.ofSeconds(5)).until(() -> redis().getMap(key("orders", "msg")).isEmpty());
    }

    /**
     * A pollEnrich whose aggregation strategy fails: Camel drops the exchange that took the message instead of handing
     * its completion over to the route's exchange, so nothing settled the message and its lease was kept alive for as
     * long as the endpoint ran. It is retried as the message of a failed route, with the route's failure.
     */
    @Test
    void aMessagePollEnrichTookIsRetriedWhenTheAggregationStrategyFails() throws Exception {
        ProducerTemplate producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from("direct:take").pollEnrich("redis-delay:orders?retrySchedule=1h&visibilityTimeout=20s", 3000,
                        (original, taken) -> {
                            throw new IllegalStateException("cannot merge order-1");
                        });
            }
        }).createProducerTemplate();
        producer.sendBodyAndHeader("redis-delay:orders", "order-1", RedisDelayConstants.MESSAGE_ID, "order-1");

        Exchange result = producer.send("direct:take", e -> e.getMessage().setBody("take one"));

        assertThat(result.getException()).hasMessageContaining("Error occurred during aggregation");
        // put back on schedule (due in an hour) with the failure, not left in flight with its 20 s lease extended
        var failureNotes = redis().getMap(key("orders", "fail"));
        await().atMost(Duration.ofSeconds(5)).until(() -> failureNotes.containsKey("order-1"));
        assertThat((String) failureNotes.get("order-1")).contains("cannot merge order-1");
    }

    /**
     * A pollEnrich whose aggregation strategy returns null (it merged the message in some other way): Camel drops the
     * exchange that took the message, whose completion the route's exchange then never gets. The message is
     * acknowledged when the route is done, as one the route took over.
     */
    @Test
    void aMessagePollEnrichTookIsAcknowledgedWithItsRouteWhenTheAggregationStrategyReturnsNull() throws Exception {
        List<String> merged = new CopyOnWriteArrayList<>();
        ProducerTemplate producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:take").pollEnrich("redis-delay:orders?visibilityTimeout=20s", 3000, (original, taken) -> {
                    merged.add(taken.getMessage().getBody(String.class));
                    return null;
                });
            }
        }).createProducerTemplate();
        producer.sendBody("redis-delay:orders", "order-1");

        producer.sendBody("direct:take", "take one");

        assertThat(merged).containsExactly("order-1");
        await().atMost(Duration.ofSeconds(5)).until(() -> redis().getMap(key("orders", "msg")).isEmpty());
    }

    @Test
    void consumerTemplateReceiversOnAnIdleQueueBeyondTheBlockingReadPermitsWaitForANoticeInsteadOfPolling()
            throws Exception {
        ConsumerTemplate consumer = startContext().createConsumerTemplate();
        int receivers = 20;
        long waitMs = 3000;
        // the endpoint and its consumer group exist before counting
        assertThat(consumer.receiveNoWait("redis-delay:idle")).isNull();
        long readsBefore = CommandStats.calls(redis()).getOrDefault("xreadgroup", 0L);
        ExecutorService pool = Executors.newFixedThreadPool(receivers);
        try {
            List<CompletableFuture<Exchange>> received = new ArrayList<>();
            for (int i = 0; i < receivers; i++) {
                received.add(CompletableFuture.supplyAsync(() -> consumer.receive("redis-delay:idle", waitMs), pool));
            }
            CompletableFuture.allOf(received.toArray(CompletableFuture[]::new)).get(waitMs + 10_000, TimeUnit.MILLISECONDS);
            assertThat(received).allSatisfy(exchange -> assertThat(exchange.join()).isNull());
        } finally {
            pool.shutdown();
        }
        long reads = CommandStats.calls(redis()).getOrDefault("xreadgroup", 0L) - readsBefore;

        // each receiver reads at once, then at least once a second (in Redis on a permit, else after a notice or the
        // second), and once more for a notice of the subscription: a few reads each in 3 s, not one every 50 ms
        long perReceiver = 1 + waitMs / 1000 + 1 + 2;
        assertThat(reads).as("reads of %d receivers waiting %d ms on an idle queue", receivers, waitMs)
                .isLessThanOrEqualTo(receivers * perReceiver);
    }

    @Test
    void consumerTemplateReceiversOnAnIdleShardedQueueReadEachShardAboutOnceASecond() throws Exception {
        ConsumerTemplate consumer = startContext().createConsumerTemplate();
        int shards = 4;
        String uri = "redis-delay:idle-sharded?shards=" + shards;
        long waitMs = 3000;
        assertThat(consumer.receiveNoWait(uri)).isNull();
        long readsBefore = CommandStats.calls(redis()).getOrDefault("xreadgroup", 0L);
        CompletableFuture<Exchange> first = CompletableFuture.supplyAsync(() -> consumer.receive(uri, waitMs));
        CompletableFuture<Exchange> second = CompletableFuture.supplyAsync(() -> consumer.receive(uri, waitMs));
        assertThat(first.get(waitMs + 10_000, TimeUnit.MILLISECONDS)).isNull();
        assertThat(second.get(waitMs + 10_000, TimeUnit.MILLISECONDS)).isNull();
        long reads = CommandStats.calls(redis()).getOrDefault("xreadgroup", 0L) - readsBefore;

        // as on a queue of one shard: every shard at once, then at least once a second, and once more for a notice of
        // the subscription; not every shard every 100 ms
        long perReceiver = shards * (1 + waitMs / 1000 + 1 + 2);
        assertThat(reads).as("reads of 2 receivers waiting %d ms on an idle queue of %d shards", waitMs, shards)
                .isLessThanOrEqualTo(2 * perReceiver);
    }

    @Test
    void consumerTemplateReceiversOnAnIdleQueueWaitInRedisOnAtMostTheClientsBlockingReadPermits() throws Exception {
        ConsumerTemplate consumer = startContext().createConsumerTemplate();
        RedisMaster server = redis().getRedisNodes(RedisNodes.SINGLE).getInstance();
        ExecutorService receivers = Executors.newFixedThreadPool(20);
        try {
            for (int i = 0; i < 20; i++) {
                receivers.execute(() -> consumer.receive("redis-delay:idle", 3000));
            }
            IntSupplier blocked = () -> Integer
                    .parseInt(server.info(RedisNode.InfoSection.CLIENTS).get("blocked_clients"));

            // connections waiting in Redis at once: some, and for the next 2 s (of the receivers' 3) never more than
            // the client's permits
            await().atMost(Duration.ofSeconds(2)).until(() -> blocked.getAsInt() > 0);
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(100))
                    .until(() -> blocked.getAsInt() <= RedisDelayComponent.READS_BLOCKING_IN_REDIS);
        } finally {
            receivers.shutdown();
            assertThat(receivers.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }
}
