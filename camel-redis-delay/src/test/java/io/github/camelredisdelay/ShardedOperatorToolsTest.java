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
import java.util.stream.IntStream;

import io.github.camelredisdelay.internal.QueueCounts;
import io.github.camelredisdelay.internal.ShardTags;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.redisson.client.codec.StringCodec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The operator's tools (stats, JMX attributes, dev console, metrics) on a sharded queue tell what Redis holds.
 */
class ShardedOperatorToolsTest extends RedisDelayTestSupport {

    private static final String SHARDED = "redis-delay:orders?shards=3";

    private long recordsInRedis(String queue) {
        return redis().getKeys().getKeysStreamByPattern(keyPrefix + ":{" + queue + "*}:msg")
                .mapToLong(key -> redis().getMap(key, StringCodec.INSTANCE).size()).sum();
    }

    /** Whether the queue of {@code uri} holds no message, scheduled, ready or in flight, counted in Redis now. */
    private static boolean nothingLeftIn(ProducerTemplate producer, String uri) {
        QueueCounts counts = CountedNow.queue(producer.getCamelContext(), uri);
        return counts.scheduled() + counts.ready() + counts.inFlight() == 0;
    }

    /**
     * A node whose first endpoint of a queue had the wrong shard count (refused) and whose later endpoint has the right
     * one: that endpoint's peek and redrive read the dead-letter queue in its own count, every shard of it.
     */
    @Test
    void anEndpointWithTheRightCountReadsTheDeadLetterQueueInItsOwnCountAfterARefusedOneStartedFirst() throws Exception {
        startFailingConsumers("boom", SHARDED + "&maxDeliveries=1");
        List<String> ids = IntStream.range(0, 6).mapToObj(i -> "order-" + i).toList();
        ProducerTemplate producer = startContext().createProducerTemplate();
        await().atMost(Duration.ofSeconds(10)).until(() -> "3".equals(
                redis().getMap(keyPrefix + ":{orders}:shards", StringCodec.INSTANCE).get("count")));
        // this node's first use of the queue forgets shards: refused, as documented
        assertThat(producer.send("redis-delay:orders?operation=stats", e -> {
        }).getException()).hasMessageContaining("this endpoint has shards=1");

        ids.forEach(id -> producer.sendBodyAndHeader(SHARDED, id, RedisDelayConstants.MESSAGE_ID, id));
        // and acknowledged: the move stores the dead letter first, and until the acknowledgement the queue holds the
        // message, which a peek then finds in flight and a redrive leaves
        await().atMost(Duration.ofSeconds(15)).until(() -> recordsInRedis("orders.dead") == ids.size()
                && nothingLeftIn(producer, SHARDED));

        List<Object> states = ids.stream().map(id -> producer.request(SHARDED + "&operation=peek",
                e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, id)).getMessage()
                .getHeader(RedisDelayConstants.STATE)).toList();
        Object moved = producer.requestBody(SHARDED + "&operation=redrive", (Object) null);

        assertThat(states).containsOnly("dead");
        assertThat(moved).isEqualTo(6L);
    }

    @Test
    void anEndpointRefusedForItsShardCountDoesNotMakeTheQueuesStatisticsCountOneShard() throws Exception {
        // the queue is stored in 3 shards, 30 messages an hour ahead
        ProducerTemplate first = startContext().createProducerTemplate();
        List<String> ids = IntStream.range(0, 30).mapToObj(i -> "order-" + i).toList();
        ids.forEach(id -> first.sendBodyAndHeader(SHARDED + "&delay=1h", id, RedisDelayConstants.MESSAGE_ID, id));
        assertThat(recordsInRedis("orders")).isEqualTo(30);

        // a node whose stats route forgot shards=3 (started first), beside its correctly configured consumer
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:stats").to("redis-delay:orders?operation=stats");
                from(SHARDED).routeId("expire").log("${body}");
            }
        });
        RedisDelayEndpoint wrong = node.getEndpoint("redis-delay:orders?operation=stats", RedisDelayEndpoint.class);
        await().atMost(Duration.ofSeconds(10)).until(() -> wrong.queueProblem() != null);
        RedisDelayEndpoint consumer = node.getEndpoint(SHARDED, RedisDelayEndpoint.class);
        assertThat(consumer.consumerProblem()).as("the consumer's shards agree").isNull();

        // the consumer's endpoint, whose shards agree, reports the queue
        Map<String, Object> stats = consumer.statisticsSnapshot();
        assertThat(stats).as("stats of the correctly configured endpoint").containsEntry("scheduled", 30L);
        assertThat(consumer.getScheduledCount()).as("JMX ScheduledCount").isEqualTo(30L);
    }

    /**
     * A node without a consumer of the queue (producers and operator routes only) whose first endpoint of the queue
     * forgot {@code shards} (refused): the statistics of its correctly configured endpoint count the dead letters of
     * every shard of the dead-letter queue, not of the refused endpoint's one shard.
     */
    @Test
    void anEndpointRefusedForItsShardCountDoesNotMakeTheStatisticsCountTheDeadLettersOfOneShard() throws Exception {
        startFailingConsumers("boom", SHARDED + "&maxDeliveries=1");
        List<String> ids = IntStream.range(0, 12).mapToObj(i -> "order-" + i).toList();
        ProducerTemplate producer = startContext().createProducerTemplate();
        ids.forEach(id -> producer.sendBodyAndHeader(SHARDED, id, RedisDelayConstants.MESSAGE_ID, id));
        await().atMost(Duration.ofSeconds(15)).until(() -> recordsInRedis("orders.dead") == ids.size()
                && nothingLeftIn(producer, SHARDED));
        assertThat(ids.stream().map(id -> ShardTags.shardOf(id, 3)).distinct().count())
                .as("dead letters on every shard").isEqualTo(3);

        // a node with no consumer of the queue, whose stats route forgot shards=3 (used first)
        ProducerTemplate node = startContext().createProducerTemplate();
        assertThat(node.send("redis-delay:orders?operation=stats", e -> {
        }).getException()).hasMessageContaining("this endpoint has shards=1");

        @SuppressWarnings("unchecked")
        Map<String, Object> stats = node.requestBody(SHARDED + "&operation=stats", (Object) null, Map.class);
        assertThat(stats).as("stats of the correctly configured endpoint").containsEntry("deadLettered", 12L);
    }
}
