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
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import io.github.camelredisdelay.internal.ShardTags;
import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.ConsumerTemplate;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A queue spread over several hash tags ({@code shards=3}) keeps every promise of a plain queue.
 */
class ShardedQueueTest extends RedisDelayTestSupport {

    private static final String SHARDED = "redis-delay:orders?shards=3";

    private final List<String> delivered = new CopyOnWriteArrayList<>();

    private ProducerTemplate nodeConsuming(String uri) throws Exception {
        return startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).process(e -> delivered.add(e.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID, String.class)));
            }
        }).createProducerTemplate();
    }

    /** The hash tags of the queue's keys of one structure (e.g. msg, or ready: a stream stays when empty). */
    private Set<String> shardTags(String queue, String structure) {
        return redis().getKeys().getKeysStreamByPattern(keyPrefix + ":{" + queue + "*}:" + structure)
                .map(key -> key.substring(key.indexOf('{') + 1, key.indexOf('}')))
                .collect(Collectors.toSet());
    }

    @Test
    void messagesAreSpreadOverEveryShardAndEachIsDeliveredOnce() throws Exception {
        ProducerTemplate producer = nodeConsuming(SHARDED + "&concurrentConsumers=2");
        List<String> ids = IntStream.range(0, 60).mapToObj(i -> "order-" + i).toList();
        ids.forEach(id -> producer.sendBodyAndHeader(SHARDED + "&delay=1h", id, RedisDelayConstants.MESSAGE_ID, id));

        assertThat(shardTags("orders", "msg")).hasSize(3).contains("orders");
        ids.forEach(id -> producer.sendBodyAndHeader(SHARDED + "&operation=reschedule&delay=0", null,
                RedisDelayConstants.MESSAGE_ID, id));

        await().atMost(Duration.ofSeconds(10)).until(() -> delivered.size() >= ids.size());
        await().pollDelay(Duration.ofMillis(300)).atMost(Duration.ofSeconds(1)).until(() -> true);
        assertThat(delivered).containsExactlyInAnyOrderElementsOf(ids);
    }

    @Test
    void cancelFindsTheShardOfItsMessage() throws Exception {
        ProducerTemplate producer = nodeConsuming(SHARDED);
        List<String> ids = IntStream.range(0, 12).mapToObj(i -> "o-" + i).toList();
        ids.forEach(id -> producer.sendBodyAndHeader(SHARDED + "&delay=1s", id, RedisDelayConstants.MESSAGE_ID, id));

        List<Object> answers = ids.stream().map(id -> producer.requestBodyAndHeader(SHARDED + "&operation=cancel", null,
                RedisDelayConstants.MESSAGE_ID, id)).toList();

        assertThat(answers).containsOnly(true);
        await().pollDelay(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(2)).until(() -> true);
        assertThat(delivered).isEmpty();
    }

    @Test
    void scheduleBatchSpreadsOverShardsAndStatsAddThemUp() throws Exception {
        ProducerTemplate producer = startContext().createProducerTemplate();
        List<String> bodies = IntStream.range(0, 30).mapToObj(i -> "b" + i).toList();

        producer.sendBody(SHARDED + "&operation=scheduleBatch&delay=1h", bodies);
        @SuppressWarnings("unchecked")
        Map<String, Object> stats = producer.requestBody(SHARDED + "&operation=stats", null, Map.class);

        assertThat(shardTags("orders", "msg")).hasSize(3);
        assertThat(stats).containsEntry("scheduled", 30L).containsEntry("ready", 0L);
    }

    @Test
    void aPollingConsumerReceivesFromEveryShard() throws Exception {
        var context = startContext();
        ProducerTemplate producer = context.createProducerTemplate();
        ConsumerTemplate consumer = context.createConsumerTemplate();
        List<String> ids = IntStream.range(0, 9).mapToObj(i -> "p-" + i).toList();
        ids.forEach(id -> producer.sendBodyAndHeader(SHARDED, id, RedisDelayConstants.MESSAGE_ID, id));

        List<Object> received = IntStream.range(0, ids.size()).mapToObj(i -> consumer.receiveBody(SHARDED, 5000)).toList();

        assertThat(received).containsExactlyInAnyOrderElementsOf(ids);
    }

    @Test
    void aReceiverTakesTheDueMessageOfAQuietShardWhileAnotherShardHoldsABacklog() throws Exception {
        var context = startContext();
        ProducerTemplate producer = context.createProducerTemplate();
        ConsumerTemplate consumer = context.createConsumerTemplate();
        // due first, on shard 2; then a backlog of 60 on shard 0
        String early = IntStream.range(0, 100).mapToObj(i -> "early-" + i).filter(id -> ShardTags.shardOf(id, 3) == 2)
                .findFirst().orElseThrow();
        producer.sendBodyAndHeader(SHARDED, early, RedisDelayConstants.MESSAGE_ID, early);
        List<String> backlog = IntStream.range(0, 1000).mapToObj(i -> "bulk-" + i).filter(id -> ShardTags.shardOf(id, 3) == 0)
                .limit(60).toList();
        backlog.forEach(id -> producer.sendBodyAndHeader(SHARDED, id, RedisDelayConstants.MESSAGE_ID, id));
        await("all ready").atMost(Duration.ofSeconds(5)).until(
                () -> Long.valueOf(61)
                        .equals(producer.requestBody(SHARDED + "&operation=stats", null, Map.class).get("ready")));

        // one receive per shard asks each shard first once
        List<Object> received = IntStream.range(0, 3).mapToObj(i -> consumer.receiveBody(SHARDED, 5000)).toList();

        assertThat(received).as("the first receives, one per shard").contains(early);
    }

    @Test
    void deadLettersGoToTheShardsOfTheDeadLetterQueue() throws Exception {
        ProducerTemplate producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(SHARDED + "&maxDeliveries=1").throwException(new IllegalStateException("boom"));
                from("redis-delay:orders.dead?shards=3")
                        .process(e -> delivered.add(e.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID, String.class)));
            }
        }).createProducerTemplate();
        List<String> ids = IntStream.range(0, 6).mapToObj(i -> "d-" + i).toList();

        ids.forEach(id -> producer.sendBodyAndHeader(SHARDED, id, RedisDelayConstants.MESSAGE_ID, id));

        await().atMost(Duration.ofSeconds(10)).until(() -> delivered.size() >= ids.size());
        assertThat(delivered).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(shardTags("orders.dead", "ready")).hasSizeGreaterThan(1);
    }

    /**
     * A receiver ({@code ConsumerTemplate}) of a queue a route consumes too is stopped with the context after the
     * endpoint they share: it stops every shard's reader all the same, without failing.
     */
    @Test
    void aReceiverOfAQueueARouteConsumesTooStopsWithTheContextWithoutFailing() throws Exception {
        CamelContext context = startContext();
        ProducerTemplate producer = context.createProducerTemplate();
        producer.sendBodyAndHeader(SHARDED, "a", RedisDelayConstants.MESSAGE_ID, "a");
        assertThat(context.createConsumerTemplate().receiveBody(SHARDED, 5000)).isEqualTo("a");
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(SHARDED).log("${body}");
            }
        });

        try (LogLines services = LogLines.of("org.apache.camel.impl.engine.InternalServiceManager")) {
            context.stop();

            assertThat(services.lines()).noneMatch(line -> line.contains("PollingConsumer"));
        }
    }
}
