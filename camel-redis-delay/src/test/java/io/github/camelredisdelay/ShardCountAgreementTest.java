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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;

import io.github.camelredisdelay.internal.QueueGuard;
import io.github.camelredisdelay.test.HealthChecks;
import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.health.HealthCheck;
import org.apache.camel.health.HealthCheckHelper;
import org.junit.jupiter.api.Test;
import org.redisson.client.codec.StringCodec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Every endpoint of a queue must use the shard count the queue is stored in: one with another {@code shards} is
 * refused, loudly, in each of its roles (producer, consumer, operator); a queue changes its count only while it holds
 * no message and no endpoint with the old count runs.
 */
class ShardCountAgreementTest extends RedisDelayTestSupport {

    private static final String SHARDED = "redis-delay:orders?shards=3";

    private final List<String> delivered = new CopyOnWriteArrayList<>();

    private CamelContext nodeConsuming(String uri) throws Exception {
        return startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).process(e -> delivered.add(e.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID, String.class)));
            }
        });
    }

    /** A node whose producer endpoint of {@code uri} runs, without sending anything. */
    private CamelContext nodeProducingTo(String uri) throws Exception {
        return startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:order").to(uri);
            }
        });
    }

    private Map<Object, Object> shardRecord(String queue) {
        return redis().getMap(keyPrefix + ":{" + queue + "}:shards", StringCodec.INSTANCE)
                .readAllMap();
    }

    /** The refusal a cancel through {@code uri} meets, once the endpoint's check answered. */
    private String refusalOf(ProducerTemplate producer, String uri) {
        return await().atMost(Duration.ofSeconds(10)).until(() -> {
            Exception failure = producer.send(uri + "&operation=cancel",
                    e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, "none")).getException();
            return failure == null ? null : failure.getMessage();
        }, message -> message != null);
    }

    @Test
    void anEndpointWithAnotherCountThanItsQueueHoldsMessagesInIsRefusedNamingBoth() throws Exception {
        CamelContext old = startContext();
        old.createProducerTemplate().sendBody("redis-delay:orders?delay=1h", "waiting in the one shard");
        await().atMost(Duration.ofSeconds(10)).until(() -> "1".equals(shardRecord("orders").get("count")));
        old.stop();
        // as if its last confirmation were a minute old
        redis().getMap(keyPrefix + ":{orders}:shards", StringCodec.INSTANCE).put("seen", "0");

        String refusal = refusalOf(startContext().createProducerTemplate(), SHARDED);

        assertThat(refusal).contains("Queue orders is stored in 1 shards, which hold 1 messages", "shards=3",
                "Use shards=1");
        assertThat(redis().getMap(key("orders", "msg")).size()).as("the message stays where it is").isEqualTo(1);
    }

    @Test
    void anEmptyQueueKeepsItsCountWhileAnEndpointWithItRuns() throws Exception {
        nodeProducingTo("redis-delay:orders?delay=1h");
        await().atMost(Duration.ofSeconds(10)).until(() -> "1".equals(shardRecord("orders").get("count")));

        String refusal = refusalOf(startContext().createProducerTemplate(), SHARDED);

        assertThat(refusal).contains("Queue orders", "shards=1", "this endpoint has shards=3", "Use shards=1");
        assertThat(shardRecord("orders")).containsEntry("count", "1");
    }

    @Test
    void anEmptyQueueTakesANewCountOnceNoEndpointConfirmedTheOldOneForHalfAMinute() throws Exception {
        CamelContext old = nodeProducingTo("redis-delay:orders?delay=1h");
        await().atMost(Duration.ofSeconds(10)).until(() -> "1".equals(shardRecord("orders").get("count")));
        old.stop();
        // as if its last confirmation were a minute old
        redis().getMap(keyPrefix + ":{orders}:shards", StringCodec.INSTANCE).put("seen", "0");

        ProducerTemplate resized = nodeConsuming(SHARDED).createProducerTemplate();
        List<String> ids = IntStream.range(0, 6).mapToObj(i -> "order-" + i).toList();
        await().atMost(Duration.ofSeconds(10)).until(() -> "3".equals(shardRecord("orders").get("count")));
        ids.forEach(id -> resized.sendBodyAndHeader(SHARDED, id, RedisDelayConstants.MESSAGE_ID, id));

        await().atMost(Duration.ofSeconds(10)).until(() -> delivered.size() >= ids.size());
        assertThat(delivered).containsExactlyInAnyOrderElementsOf(ids);
    }

    @Test
    void aConsumerWithAnotherCountConsumesNothingAndIsDownNamingBoth() throws Exception {
        ProducerTemplate producer = nodeProducingTo("redis-delay:orders").createProducerTemplate();
        producer.sendBodyAndHeader("redis-delay:orders?delay=1500", "due soon", RedisDelayConstants.MESSAGE_ID, "a");

        CamelContext consumer = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders?shards=2").routeId("expire")
                        .process(e -> delivered.add(e.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID, String.class)));
            }
        });
        HealthChecks.enableConsumersAndProducers(consumer);
        consumer.start();

        HealthCheck.Result down = await().atMost(Duration.ofSeconds(10)).until(
                () -> HealthCheckHelper.invokeReadiness(consumer).stream()
                        .filter(result -> result.getCheck().getId().equals("consumer:expire"))
                        .findFirst().orElseThrow(),
                result -> result.getState() == HealthCheck.State.DOWN);
        assertThat(down.getMessage()).hasValueSatisfying(
                message -> assertThat(message).contains("Queue orders", "this endpoint has shards=2", "Use shards=1"));
        // once the producer's node has moved the due message to the ready stream, a consumer that read would get it
        await().atMost(Duration.ofSeconds(10)).until(() -> redis().getStream(key("orders", "ready")).size() == 1);
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(delivered::isEmpty);
        assertThat(redis().getMap(key("orders", "msg")).size()).isEqualTo(1);
    }

    @Test
    void operatorOperationsOfAnEndpointWithAnotherCountAreRefused() throws Exception {
        ProducerTemplate producer = startContext().createProducerTemplate();
        producer.sendBody("redis-delay:orders?delay=1h", "waiting in the one shard");
        RedisDelayEndpoint sharded = producer.getCamelContext().getEndpoint(SHARDED, RedisDelayEndpoint.class);
        // the endpoint checks its queue's shard count just after it starts, off the start path
        await().atMost(Duration.ofSeconds(10)).until(() -> sharded.consumerProblem() != null);

        assertThatThrownBy(() -> sharded.purgeQueue("orders")).hasMessageContaining("this endpoint has shards=3");
        assertThatThrownBy(sharded::getExchanges).hasMessageContaining("this endpoint has shards=3");
        assertThat(redis().getMap(key("orders", "msg")).size()).as("nothing purged").isEqualTo(1);
    }

    @Test
    void aProducerWithAnotherCountIsRefusedFromItsFirstSchedule() throws Exception {
        nodeProducingTo("redis-delay:orders?delay=1h");
        await().atMost(Duration.ofSeconds(10)).until(() -> "1".equals(shardRecord("orders").get("count")));
        ProducerTemplate producer = startContext().createProducerTemplate();

        Exception refusal = producer.send(SHARDED + "&delay=1h", e -> e.getMessage().setBody("first")).getException();

        assertThat(refusal).isNotNull().hasMessageContaining("this endpoint has shards=3");
        assertThat(redis().getKeys().getKeysStreamByPattern(keyPrefix + ":{orders*}:msg").count())
                .as("nothing stored").isZero();
    }

    @Test
    void aDeadLetterQueueWithAnotherCountStopsTheConsumerButNotTheProducerOfTheSameEndpoint() throws Exception {
        nodeConsuming("redis-delay:a?shards=2&deadLetterQueue=failed");
        await().atMost(Duration.ofSeconds(10)).until(() -> "2".equals(shardRecord("failed").get("count")));
        String uri = "redis-delay:b?deadLetterQueue=failed";
        CamelContext node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).routeId("b").process(e -> delivered.add(e.getMessage().getBody(String.class)));
            }
        });
        HealthChecks.enableConsumersAndProducers(node);
        node.start();

        await().atMost(Duration.ofSeconds(10)).until(() -> HealthChecks.readiness(node).get("consumer:b"),
                state -> state == HealthCheck.State.DOWN);
        Exception failure = node.createProducerTemplate().send(uri, e -> {
            e.getMessage().setBody("scheduled by b's producer");
            e.getMessage().setHeader(RedisDelayConstants.DELAY, "1h");
        }).getException();

        assertThat(failure).as("b's own queue agrees; only its consumer dead-letters").isNull();
        assertThat(redis().getMap(key("b", "msg")).size()).isEqualTo(1);
    }

    @Test
    void theErrorOfADeadLetterQueueWithAnotherCountNamesEveryEndpointWhoseConsumerDisagrees() throws Exception {
        nodeConsuming("redis-delay:a?shards=2&deadLetterQueue=failed");
        await().atMost(Duration.ofSeconds(10)).until(() -> "2".equals(shardRecord("failed").get("count")));

        try (LogLines log = LogLines.of(QueueGuard.class)) {
            startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:b?deadLetterQueue=failed").routeId("b").log("${body}");
                    from("redis-delay:c?deadLetterQueue=failed").routeId("c").log("${body}");
                }
            });

            // each of b and c has to be set to shards=2: an ERROR naming only one leaves the other to the next restart
            await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(
                    String.join("\n", log.lines().stream().filter(line -> line.startsWith("ERROR")).toList()))
                    .contains("Queue failed is in use with shards=2").contains("redis-delay://b")
                    .contains("redis-delay://c"));
        }
    }

    @Test
    void theErrorAndDownMessageOfADeadLetterQueueWithAnotherCountSayItIsTheConsumersDeadLetterQueue() throws Exception {
        nodeConsuming("redis-delay:a?shards=2&deadLetterQueue=failed");
        await().atMost(Duration.ofSeconds(10)).until(() -> "2".equals(shardRecord("failed").get("count")));

        try (LogLines log = LogLines.of(QueueGuard.class)) {
            CamelContext node = createContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:b?deadLetterQueue=failed").routeId("b").log("${body}");
                }
            });
            HealthChecks.enableConsumersAndProducers(node);
            node.start();

            // b's own queue agrees: the operator must learn that b's shards are the dead-letter queue's too
            String error = await().atMost(Duration.ofSeconds(15)).until(
                    () -> log.lines().stream().filter(line -> line.startsWith("ERROR") && line.contains("redis-delay://b"))
                            .findFirst().orElse(null),
                    line -> line != null);
            // the way out is the queue's count on every endpoint, or another dead-letter queue for this consumer
            assertThat(error).contains("Queue failed is in use with shards=2", "dead-letters to queue failed",
                    "or name another deadLetterQueue");
            HealthCheck.Result down = await().atMost(Duration.ofSeconds(10)).until(
                    () -> HealthCheckHelper.invokeReadiness(node).stream()
                            .filter(result -> result.getCheck().getId().equals("consumer:b")).findFirst().orElseThrow(),
                    result -> result.getState() == HealthCheck.State.DOWN);
            assertThat(down.getMessage()).hasValueSatisfying(message -> assertThat(message)
                    .contains("Queue failed is in use with shards=2", "dead-letters to queue failed",
                            "or name another deadLetterQueue"));
        }
    }

    @Test
    void anEndpointThatNamesNoDeadLetterQueueRecordsNoCountForOne() throws Exception {
        nodeProducingTo("redis-delay:orders?delay=1h");
        await().atMost(Duration.ofSeconds(10)).until(() -> "1".equals(shardRecord("orders").get("count")));

        assertThat(redis().getKeys().countExists(keyPrefix + ":{orders.dead}:shards")).isZero();
    }

    @Test
    void aProducerIsNotRefusedForTheCountOfTheDeadLetterQueueItNames() throws Exception {
        nodeConsuming("redis-delay:a?shards=2&deadLetterQueue=failed");
        ProducerTemplate producer = startContext().createProducerTemplate();
        await().atMost(Duration.ofSeconds(10)).until(() -> "2".equals(shardRecord("failed").get("count")));

        producer.sendBodyAndHeader("redis-delay:b?delay=1h&deadLetterQueue=failed", "b's own queue has one shard",
                RedisDelayConstants.MESSAGE_ID, "b-1");

        assertThat(redis().getMap(key("b", "msg")).size()).isEqualTo(1);
    }

    /**
     * Redis loses its data (a restart without persistence, a FLUSHALL: here the queue's keys are deleted) right after a
     * node running the queue with shards=3 confirmed its count, and another node's first use of the queue, through an
     * endpoint with the default shards=1 (a cancel route that forgot the option), records its count where none is. The
     * running node takes its count back at its next check, and goes on: the other endpoint's record began after the
     * running node last confirmed its own.
     */
    @Test
    void aStrayEndpointThatRecordsItsCountRightAfterRedisLostItsDataDoesNotTakeTheQueueFromTheRunningNode()
            throws Exception {
        RedisDelayEndpoint goodEndpoint = runningNodeWhoseRedisLosesItsData("redis-delay:sq?shards=3", "3");

        Object answer = startContext().createProducerTemplate().requestBodyAndHeader("redis-delay:sq?operation=cancel", null,
                RedisDelayConstants.MESSAGE_ID, "order-1");
        assertThat(answer).isEqualTo(false);
        assertThat(recorded("sq", "count")).as("recorded by the stray endpoint").isEqualTo("1");

        await("the running node's next check").atMost(Duration.ofSeconds(15)).until(() -> "3".equals(recorded("sq", "count")));
        assertThat(goodEndpoint.consumerProblem()).isNull();
    }

    /**
     * As above, but the stray endpoint (shards=4) schedules messages into shards of its count the running node's
     * (shards=1) do not read: the running node does not take the record back, which would strand them in silence; it is
     * refused, naming the count in use, as before Redis lost its data a node with another count would be.
     */
    @Test
    void aStrayEndpointThatStoredMessagesInShardsOfItsOwnKeepsTheRecordAndTheRunningNodeIsRefused() throws Exception {
        RedisDelayEndpoint goodEndpoint = runningNodeWhoseRedisLosesItsData("redis-delay:sq", "1");

        ProducerTemplate stray = startContext().createProducerTemplate();
        IntStream.range(0, 12).forEach(i -> stray.sendBodyAndHeader("redis-delay:sq?shards=4&delay=1h", "order-" + i,
                RedisDelayConstants.MESSAGE_ID, "order-" + i));
        assertThat(recorded("sq", "count")).as("recorded by the stray endpoint").isEqualTo("4");

        await("the running node's next check").atMost(Duration.ofSeconds(15))
                .until(() -> goodEndpoint.consumerProblem() != null);
        assertThat(goodEndpoint.consumerProblem()).contains("in use with shards=4");
        assertThat(recorded("sq", "count")).isEqualTo("4");
    }

    /**
     * Starts a node consuming {@code uri} (queue sq), waits until its count is recorded, and then deletes the queue's
     * keys, as a restart of Redis without persistence or a FLUSHALL would.
     *
     * @return the running node's endpoint
     */
    private RedisDelayEndpoint runningNodeWhoseRedisLosesItsData(String uri, String count) throws Exception {
        CamelContext good = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).routeId("good").log("${body}");
            }
        });
        // right after the running node's first check, which confirmed its count: the next is 10 s away
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> count.equals(recorded("sq", "count")));
        redis().getKeys().deleteByPattern(keyPrefix + ":*");
        return good.getEndpoint(uri, RedisDelayEndpoint.class);
    }

    private String recorded(String queue, String field) {
        return (String) shardRecord(queue).get(field);
    }
}
