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

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.function.Predicate;
import java.util.stream.IntStream;

import io.github.camelredisdelay.internal.EnvelopeCodec;
import io.github.camelredisdelay.internal.QueueKeys;
import io.github.camelredisdelay.internal.Wire;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.CamelExecutionException;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.console.DevConsole;
import org.apache.camel.console.DevConsoleResolver;
import org.apache.camel.spi.BrowsableEndpoint;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RMap;
import org.redisson.api.stream.StreamReadGroupArgs;
import org.redisson.client.codec.ByteArrayCodec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class BrowsePeekAndPurgeTest extends RedisDelayTestSupport {

    private final CountDownLatch release = new CountDownLatch(1);
    private final CountDownLatch fetched = new CountDownLatch(1);

    @AfterEach
    void releaseConsumers() {
        release.countDown();
    }

    /** A node whose consumer of {@code uri} holds the first message it gets until the test ends, and fails "fail-*". */
    private CamelContext nodeHoldingOne(String uri) throws Exception {
        return startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri + (uri.contains("?") ? "&" : "?") + "maxMessagesPerPoll=1&maxDeliveries=1").process(e -> {
                    if (e.getMessage().getBody(String.class).startsWith("fail")) {
                        throw new IllegalStateException("shop said no to " + e.getMessage().getBody());
                    }
                    fetched.countDown();
                    release.await();
                });
            }
        });
    }

    private static Exchange peek(ProducerTemplate producer, String uri, String id) {
        return producer.request(uri + (uri.contains("?") ? "&" : "?") + "operation=peek",
                e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, id));
    }

    /**
     * A message this node cannot read (stored by a newer node in a later envelope format, or damaged): browsing and
     * peeking show it with its stored bytes as the body and its metadata, beside the messages the node reads.
     */
    @Test
    void aMessageThisNodeCannotReadIsBrowsedAndPeekedWithItsStoredBytesBesideTheOthers() throws Exception {
        CamelContext node = startContext();
        ProducerTemplate producer = node.createProducerTemplate();
        producer.sendBodyAndHeader("redis-delay:jobs?delay=1h", "readable", RedisDelayConstants.MESSAGE_ID, "old");
        producer.sendBodyAndHeader("redis-delay:jobs?delay=2h", "from a newer node", RedisDelayConstants.MESSAGE_ID, "new");
        RMap<byte[], byte[]> records = redis().getMap(key("jobs", "msg"), ByteArrayCodec.INSTANCE);
        byte[] name = "new".getBytes(StandardCharsets.UTF_8);
        byte[] record = records.get(name);
        record[Wire.RECORD_HEAD_BYTES] = EnvelopeCodec.VERSION + 1;
        records.put(name, record);

        List<Exchange> browsed = node.getEndpoint("redis-delay:jobs", BrowsableEndpoint.class).getExchanges();
        Exchange peeked = peek(producer, "redis-delay:jobs", "new");

        assertThat(browsed).extracting(e -> e.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID))
                .containsExactly("old", "new");
        assertThat(browsed.get(0).getMessage().getBody()).isEqualTo("readable");
        byte[] envelope = Arrays.copyOfRange(record, Wire.RECORD_HEAD_BYTES, record.length);
        for (Exchange unreadable : List.of(browsed.get(1), peeked)) {
            assertThat(unreadable.getException()).isNull();
            assertThat(unreadable.getMessage().getBody()).isEqualTo(envelope);
            assertThat(unreadable.getMessage().getHeaders()).containsEntry(RedisDelayConstants.STATE, "scheduled")
                    .containsEntry(RedisDelayConstants.MESSAGE_ID, "new").containsKey(RedisDelayConstants.SCHEDULED_FOR);
        }
    }

    @Test
    void peekShowsEachMessageWithItsStateBodyAndHeaders() throws Exception {
        ProducerTemplate producer = nodeHoldingOne("redis-delay:orders").createProducerTemplate();
        producer.sendBodyAndHeaders("redis-delay:orders", "held", Map.of(RedisDelayConstants.MESSAGE_ID, "held", "shop", "s1"));
        await().atMost(Duration.ofSeconds(5)).until(() -> fetched.getCount() == 0);
        producer.sendBodyAndHeaders("redis-delay:orders", "ready", Map.of(RedisDelayConstants.MESSAGE_ID, "ready"));
        producer.sendBodyAndHeaders("redis-delay:orders?delay=1h", "later", Map.of(RedisDelayConstants.MESSAGE_ID, "later",
                "shop", "s2"));

        Exchange later = peek(producer, "redis-delay:orders", "later");
        Exchange held = peek(producer, "redis-delay:orders", "held");
        Exchange ready = peek(producer, "redis-delay:orders", "ready");

        assertThat(later.getMessage().getBody()).isEqualTo("later");
        assertThat(later.getMessage().getHeaders()).containsEntry(RedisDelayConstants.STATE, "scheduled")
                .containsEntry("shop", "s2").containsEntry(RedisDelayConstants.DELIVERY_COUNT, 0)
                .containsKey(RedisDelayConstants.SCHEDULED_FOR);
        assertThat(held.getMessage().getHeaders()).containsEntry(RedisDelayConstants.STATE, "inflight")
                .containsEntry("shop", "s1")
                .containsEntry(RedisDelayConstants.DELIVERY_COUNT, 1);
        assertThat(ready.getMessage().getHeaders()).containsEntry(RedisDelayConstants.STATE, "ready");
        assertThat(ready.getMessage().getBody()).isEqualTo("ready");
    }

    @Test
    void peekFindsADeadLetterWithItsLastErrorAndTheQueueItIsIn() throws Exception {
        ProducerTemplate producer = nodeHoldingOne("redis-delay:orders").createProducerTemplate();
        producer.sendBodyAndHeader("redis-delay:orders", "fail-1", RedisDelayConstants.MESSAGE_ID, "f1");
        await().atMost(Duration.ofSeconds(10)).until(() -> "dead".equals(peek(producer, "redis-delay:orders", "f1")
                .getMessage().getHeader(RedisDelayConstants.STATE)));

        Exchange dead = peek(producer, "redis-delay:orders", "f1");

        assertThat(dead.getMessage().getBody()).isEqualTo("fail-1");
        assertThat(dead.getMessage().getHeader(RedisDelayConstants.LAST_ERROR, String.class)).contains("shop said no");
        assertThat(dead.getMessage().getHeader(RedisDelayConstants.ORIGINAL_QUEUE)).isEqualTo("orders");
        // where it is now, and its deliveries from there (none yet), as a consumer of that queue would see them
        assertThat(dead.getMessage().getHeaders()).containsEntry(RedisDelayConstants.QUEUE, "orders.dead")
                .containsEntry(RedisDelayConstants.DELIVERY_COUNT, 0);
    }

    @Test
    void peekOfAReplacementDueNowOfAMessageInFlightSaysItIsReady() throws Exception {
        ProducerTemplate producer = nodeHoldingOne("redis-delay:orders").createProducerTemplate();
        producer.sendBodyAndHeader("redis-delay:orders", "v1", RedisDelayConstants.MESSAGE_ID, "o1");
        await().atMost(Duration.ofSeconds(5)).until(() -> fetched.getCount() == 0);
        producer.sendBodyAndHeader("redis-delay:orders?onDuplicate=replace", "v2", RedisDelayConstants.MESSAGE_ID, "o1");

        Exchange peeked = peek(producer, "redis-delay:orders", "o1");

        assertThat(peeked.getMessage().getBody()).isEqualTo("v2");
        assertThat(peeked.getMessage().getHeaders()).as("v2, never delivered; v1 is the one in flight")
                .containsEntry(RedisDelayConstants.STATE, "ready").containsEntry(RedisDelayConstants.DELIVERY_COUNT, 0);
    }

    @Test
    void peekOfADeadLetterBeingDeliveredFromTheDeadLetterQueueCountsThatDelivery() throws Exception {
        ProducerTemplate producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders?maxDeliveries=1").throwException(new IllegalStateException("shop said no"));
                from("redis-delay:orders.dead").process(e -> {
                    fetched.countDown();
                    release.await();
                });
            }
        }).createProducerTemplate();
        producer.sendBodyAndHeader("redis-delay:orders", "x", RedisDelayConstants.MESSAGE_ID, "f1");
        await().atMost(Duration.ofSeconds(10)).until(() -> fetched.getCount() == 0);
        // the move stores the dead letter, then acknowledges the delivery on the queue: the dead-letter consumer may
        // take it in between, while the queue still holds the message in flight
        Exchange fromTheQueue = await().atMost(Duration.ofSeconds(5))
                .until(() -> peek(producer, "redis-delay:orders", "f1"),
                        peeked -> "dead".equals(peeked.getMessage().getHeader(RedisDelayConstants.STATE)));
        Exchange fromTheDeadLetterQueue = peek(producer, "redis-delay:orders.dead", "f1");

        assertThat(fromTheDeadLetterQueue.getMessage().getHeaders()).containsEntry(RedisDelayConstants.STATE, "inflight")
                .containsEntry(RedisDelayConstants.DELIVERY_COUNT, 1);
        assertThat(fromTheQueue.getMessage().getHeaders()).containsEntry(RedisDelayConstants.STATE, "dead")
                .as("its deliveries from the dead-letter queue so far").containsEntry(RedisDelayConstants.DELIVERY_COUNT, 1);
    }

    @Test
    void peekAndBrowsingOfAMessageTakenOverAfterAnExpiredLeaseCountTheDeliveryTheRouteSees() throws Exception {
        CamelContext node = startContext();
        ProducerTemplate producer = node.createProducerTemplate();
        producer.sendBodyAndHeader("redis-delay:jobs", "job", RedisDelayConstants.MESSAGE_ID, "j1");
        var ready = redis().getStream(key("jobs", "ready"));
        await().atMost(Duration.ofSeconds(5)).until(() -> ready.size() == 1);
        // a consumer that takes the message and dies
        assertThat(ready.readGroup(QueueKeys.GROUP, "crashed", StreamReadGroupArgs.neverDelivered().count(1))).hasSize(1);
        List<Object> deliveryCounts = new CopyOnWriteArrayList<>();
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs?visibilityTimeout=300").process(e -> {
                    deliveryCounts.add(e.getMessage().getHeader(RedisDelayConstants.DELIVERY_COUNT));
                    fetched.countDown();
                    release.await();
                });
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> fetched.getCount() == 0);

        Exchange peeked = peek(producer, "redis-delay:jobs", "j1");
        List<Exchange> browsed = node.getEndpoint("redis-delay:jobs", BrowsableEndpoint.class).getExchanges();

        assertThat(deliveryCounts).as("the route's delivery, after the crashed consumer's").containsExactly(2);
        assertThat(peeked.getMessage().getHeaders()).containsEntry(RedisDelayConstants.STATE, "inflight")
                .containsEntry(RedisDelayConstants.DELIVERY_COUNT, 2);
        assertThat(browsed).extracting(e -> e.getMessage().getHeader(RedisDelayConstants.DELIVERY_COUNT)).containsExactly(2);
    }

    @Test
    void peekOfAnUnknownIdGivesANullBodyAndNoneOfTheExchangesOwnHeaders() throws Exception {
        ProducerTemplate producer = startContext().createProducerTemplate();

        // as on an exchange a consumer delivered
        Exchange unknown = producer.request("redis-delay:orders?operation=peek", e -> {
            e.getMessage().setBody("left over");
            e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, "nobody");
            e.getMessage().setHeader(RedisDelayConstants.QUEUE, "payments");
            e.getMessage().setHeader(RedisDelayConstants.SCHEDULED_FOR, 1L);
            e.getMessage().setHeader(RedisDelayConstants.SCHEDULED_AT, 1L);
            e.getMessage().setHeader(RedisDelayConstants.DELIVERY_COUNT, 3);
            e.getMessage().setHeader(RedisDelayConstants.LAST_ERROR, "of the exchange's own message");
            e.getMessage().setHeader("customer", "alice");
        });

        assertThat(unknown.getException()).isNull();
        assertThat(unknown.getMessage().getBody()).isNull();
        assertThat(unknown.getMessage().getHeaders()).doesNotContainKeys(RedisDelayConstants.STATE,
                RedisDelayConstants.QUEUE, RedisDelayConstants.SCHEDULED_FOR, RedisDelayConstants.SCHEDULED_AT,
                RedisDelayConstants.DELIVERY_COUNT, RedisDelayConstants.LAST_ERROR)
                .as("the id asked for, and the exchange's other headers")
                .containsEntry(RedisDelayConstants.MESSAGE_ID, "nobody").containsEntry("customer", "alice");
    }

    @Test
    void peekOfAMessageCarriesNoneOfTheExchangesOwnHeadersButItsOtherHeadersAndRequest() throws Exception {
        ProducerTemplate producer = startContext().createProducerTemplate();
        producer.sendBodyAndHeader("redis-delay:orders?delay=1h", "later", RedisDelayConstants.MESSAGE_ID, "later");

        // as on an exchange a consumer of a dead-letter queue delivered, of a message migrated from an RDelayedQueue
        Exchange peeked = producer.request("redis-delay:orders", e -> {
            e.getMessage().setHeader(RedisDelayConstants.OPERATION, "peek");
            e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, "later");
            e.getMessage().setHeader(RedisDelayConstants.ORIGINAL_QUEUE, "payments");
            e.getMessage().setHeader(RedisDelayConstants.MIGRATED_FROM, "redisson_delay_queue:payments");
            e.getMessage().setHeader(RedisDelayConstants.LAST_ERROR, "of the exchange's own message");
            e.getMessage().setHeader("customer", "alice");
        });

        assertThat(peeked.getMessage().getBody()).isEqualTo("later");
        assertThat(peeked.getMessage().getHeaders()).containsEntry(RedisDelayConstants.STATE, "scheduled")
                .doesNotContainKeys(RedisDelayConstants.ORIGINAL_QUEUE, RedisDelayConstants.MIGRATED_FROM,
                        RedisDelayConstants.LAST_ERROR)
                .containsEntry(RedisDelayConstants.OPERATION, "peek").containsEntry("customer", "alice");
    }

    @Test
    void purgeWithoutConfirmationFailsAndRemovesNothing() throws Exception {
        ProducerTemplate producer = startContext().createProducerTemplate();
        producer.sendBody("redis-delay:orders?delay=1h", "x");

        assertThatThrownBy(() -> producer.requestBody("redis-delay:orders?operation=purge", (Object) null))
                .isInstanceOf(CamelExecutionException.class).cause().isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("purge of queue orders needs the queue's name (orders)")
                .hasMessageContaining(RedisDelayConstants.CONFIRM).hasMessageContaining("Nothing was removed");
        assertThatThrownBy(() -> producer.requestBodyAndHeader("redis-delay:orders?operation=purge", null,
                RedisDelayConstants.CONFIRM, "orders.dead")).hasRootCauseMessage(
                        "purge of queue orders needs the queue's name (orders) as confirmation, in header CamelRedisDelayConfirm "
                                                                                 + "or as the JMX operation's argument, so that a stray route cannot wipe a queue; it was 'orders.dead'. "
                                                                                 + "Nothing was removed");
        assertThat(redis().getMap(key("orders", "msg")).size()).isEqualTo(1);
    }

    @Test
    void purgeRemovesScheduledReadyAndInFlightMessagesInChunks() throws Exception {
        ProducerTemplate producer = nodeHoldingOne("redis-delay:orders").createProducerTemplate();
        producer.sendBody("redis-delay:orders", "held");
        await().atMost(Duration.ofSeconds(5)).until(() -> fetched.getCount() == 0);
        producer.sendBody("redis-delay:orders", "ready");
        List<String> many = IntStream.range(0, 1_234).mapToObj(i -> "m" + i).toList();
        producer.sendBody("redis-delay:orders?operation=scheduleBatch&delay=1h", many);
        producer.sendBodyAndHeader("redis-delay:orders", "fail-x", RedisDelayConstants.DELAY, "1h");

        Object removed = producer.requestBodyAndHeader("redis-delay:orders?operation=purge", null, RedisDelayConstants.CONFIRM,
                "orders");

        assertThat(removed).isEqualTo(1_237L);
        assertThat(redis().getKeys().getKeysByPattern(keyPrefix + ":{orders}:*"))
                .filteredOn(key -> !key.endsWith(":shards")).containsExactly(key("orders", "ready"));
        assertThat(redis().getStream(key("orders", "ready")).size()).isZero();
        release.countDown();
        producer.sendBody("redis-delay:orders", "after");
        await().atMost(Duration.ofSeconds(5)).until(() -> redis().getMap(key("orders", "msg")).size() == 0);
    }

    @Test
    void purgeEmptiesEveryShard() throws Exception {
        ProducerTemplate producer = startContext().createProducerTemplate();
        producer.sendBody("redis-delay:orders?shards=3&operation=scheduleBatch&delay=1h",
                IntStream.range(0, 60).mapToObj(i -> "m" + i).toList());

        Object removed = producer.requestBodyAndHeader("redis-delay:orders?shards=3&operation=purge", null,
                RedisDelayConstants.CONFIRM, "orders");

        assertThat(removed).isEqualTo(60L);
        // what stays: the shard count each queue is stored in (its dead-letter queue's too), a small hash
        assertThat(redis().getKeys().getKeysByPattern(keyPrefix + ":*")).allMatch(key -> key.endsWith("}:shards"));
    }

    @Test
    void endpointOffersPeekAndPurgeAsJmxOperations() throws Exception {
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:order").to("redis-delay:orders?delay=1h");
            }
        });
        node.createProducerTemplate().sendBodyAndHeader("direct:order", "x", RedisDelayConstants.MESSAGE_ID, "o1");
        var server = java.lang.management.ManagementFactory.getPlatformMBeanServer();
        var name = server.queryNames(new javax.management.ObjectName(
                "org.apache.camel:context=" + node.getManagementName()
                                                                     + ",type=endpoints,*"),
                null)
                .stream().filter(n -> n.getKeyProperty("name").contains("redis-delay://orders")).findFirst().orElseThrow();
        String[] signature = { String.class.getName() };

        Object shown = server.invoke(name, "peekMessage", new Object[] { "o1" }, signature);
        Object removed = server.invoke(name, "purgeQueue", new Object[] { "orders" }, signature);

        assertThat(shown).asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP).containsEntry("state", "scheduled")
                .containsEntry("body", "x");
        assertThat(removed).isEqualTo(1L);
    }

    @Test
    void browsingListsInFlightReadyAndScheduledMessagesInDueOrder() throws Exception {
        CamelContext node = nodeHoldingOne("redis-delay:orders");
        ProducerTemplate producer = node.createProducerTemplate();
        producer.sendBodyAndHeader("redis-delay:orders", "held", RedisDelayConstants.MESSAGE_ID, "held");
        await().atMost(Duration.ofSeconds(5)).until(() -> fetched.getCount() == 0);
        producer.sendBodyAndHeader("redis-delay:orders", "ready", RedisDelayConstants.MESSAGE_ID, "ready");
        producer.sendBodyAndHeader("redis-delay:orders?delay=2h", "in 2h", RedisDelayConstants.MESSAGE_ID, "later");
        producer.sendBodyAndHeader("redis-delay:orders?delay=1h", "in 1h", RedisDelayConstants.MESSAGE_ID, "sooner");

        List<Exchange> browsed = node.getEndpoint("redis-delay:orders", BrowsableEndpoint.class).getExchanges();

        assertThat(browsed).extracting(e -> e.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID))
                .containsExactly("held", "ready", "sooner", "later");
        assertThat(browsed).extracting(e -> e.getMessage().getHeader(RedisDelayConstants.STATE))
                .containsExactly("inflight", "ready", "scheduled", "scheduled");
        assertThat(browsed.get(2).getMessage().getBody()).isEqualTo("in 1h");
    }

    @Test
    void browsingStopsAtTheBrowseLimitOnEveryShard() throws Exception {
        CamelContext node = startContext();
        ProducerTemplate producer = node.createProducerTemplate();
        IntStream.range(0, 40)
                .forEach(i -> producer.sendBodyAndHeader("redis-delay:orders?shards=3&delay=" + (3_600_000 + i * 1000),
                        "m" + i, RedisDelayConstants.MESSAGE_ID, "m" + i));

        BrowsableEndpoint endpoint = node.getEndpoint("redis-delay:orders?shards=3&browseLimit=7", BrowsableEndpoint.class);
        List<Exchange> browsed = endpoint.getExchanges();

        assertThat(browsed).extracting(e -> e.getMessage().getBody()).containsExactly("m0", "m1", "m2", "m3", "m4", "m5", "m6");
        // Camel's BrowseStatus: the size is the queue's, the exchanges listed are what browseLimit bounds
        assertThat(endpoint.getBrowseStatus(100).size()).isEqualTo(40);
    }

    @Test
    void browsingFollowsCamelsContractForLimitAndFilter() throws Exception {
        CamelContext node = startContext();
        ProducerTemplate producer = node.createProducerTemplate();
        IntStream.range(0, 5).forEach(i -> producer.sendBodyAndHeader("redis-delay:orders?delay=" + (3_600_000 + i * 1000),
                "m" + i, RedisDelayConstants.MESSAGE_ID, "m" + i));
        BrowsableEndpoint endpoint = node.getEndpoint("redis-delay:orders?browseLimit=10", BrowsableEndpoint.class);

        // a limit of 0 or less: no limit but browseLimit
        assertThat(endpoint.getExchanges(0, null)).hasSize(5);
        assertThat(endpoint.getBrowseStatus(0).size()).isEqualTo(5);
        // the filter first, then the limit
        Predicate<Exchange> onlyM4 = e -> "m4".equals(e.getMessage().getBody());
        assertThat(endpoint.getExchanges(1, onlyM4))
                .extracting(e -> e.getMessage().getBody()).containsExactly("m4");
    }

    @Test
    void browsingUpToTheLargestBrowseLimitListsThatMany() throws Exception {
        CamelContext node = startContext();
        List<String> bodies = IntStream.range(0, 10_001).mapToObj(i -> "m" + i).toList();
        node.createProducerTemplate().sendBody("redis-delay:orders?operation=scheduleBatch&delay=1h", bodies);

        List<Exchange> browsed
                = node.getEndpoint("redis-delay:orders?browseLimit=10000", BrowsableEndpoint.class).getExchanges();

        assertThat(browsed).hasSize(10_000);
    }

    @Test
    void devConsoleListsNextDueMostOverdueAndNewestDeadLetters() throws Exception {
        CamelContext node = nodeHoldingOne("redis-delay:orders");
        ProducerTemplate producer = node.createProducerTemplate();
        producer.sendBodyAndHeader("redis-delay:orders", "fail-1", RedisDelayConstants.MESSAGE_ID, "gone");
        await().atMost(Duration.ofSeconds(5)).until(() -> "dead".equals(producer.request("redis-delay:orders?operation=peek",
                e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, "gone")).getMessage()
                .getHeader(RedisDelayConstants.STATE)));
        producer.sendBodyAndHeader("redis-delay:orders", "held", RedisDelayConstants.MESSAGE_ID, "held");
        await().atMost(Duration.ofSeconds(5)).until(() -> fetched.getCount() == 0);
        producer.sendBodyAndHeader("redis-delay:orders", "waiting", RedisDelayConstants.MESSAGE_ID, "waiting");
        producer.sendBodyAndHeader("redis-delay:orders?delay=1h", "later", RedisDelayConstants.MESSAGE_ID, "later");

        DevConsole console
                = node.getCamelContextExtension().getContextPlugin(DevConsoleResolver.class).resolveDevConsole("redis-delay");
        String text = (String) console.call(DevConsole.MediaType.TEXT);

        assertThat(text).contains("nextDue:").containsPattern("later due in \\d+ ms")
                .contains("mostOverdue:").containsPattern("waiting overdue by \\d+ ms")
                .contains("newestDeadLetters:")
                .containsPattern("gone dead-lettered \\d+ ms ago: java.lang.IllegalStateException: shop said no to fail-1");
    }

    @Test
    void devConsoleListsNextDueAndMostOverdueBehindABacklogInFlight() throws Exception {
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                // three readers fetch ten each and hold them: 30 in flight
                from("redis-delay:orders?concurrentConsumers=3&maxMessagesPerPoll=10").process(e -> release.await());
            }
        });
        ProducerTemplate producer = node.createProducerTemplate();
        producer.sendBody("redis-delay:orders?operation=scheduleBatch",
                IntStream.range(0, 30).mapToObj(i -> "held-" + i).toList());
        await().atMost(Duration.ofSeconds(10)).until(
                () -> redis().getStream(key("orders", "ready")).getPendingInfo(QueueKeys.GROUP).getTotal() == 30);
        producer.sendBodyAndHeader("redis-delay:orders", "waiting", RedisDelayConstants.MESSAGE_ID, "waiting");
        producer.sendBodyAndHeader("redis-delay:orders?delay=1h", "later", RedisDelayConstants.MESSAGE_ID, "later");

        DevConsole console
                = node.getCamelContextExtension().getContextPlugin(DevConsoleResolver.class).resolveDevConsole("redis-delay");
        String text = (String) console.call(DevConsole.MediaType.TEXT);

        assertThat(text).containsPattern("later due in \\d+ ms").containsPattern("waiting overdue by \\d+ ms");
    }
}
