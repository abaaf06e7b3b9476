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
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.stream.IntStream;

import io.github.camelredisdelay.test.NeedsRedisProcess;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.github.camelredisdelay.test.RedisServerExtension;
import io.github.camelredisdelay.test.SlowCalls;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@NeedsRedisProcess
class ByIdOperationsTest extends RedisDelayTestSupport {

    private final List<Message> deliveries = new CopyOnWriteArrayList<>();

    private ProducerTemplate nodeConsuming(String queue) throws Exception {
        return startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:" + queue).process(e -> deliveries.add(e.getMessage().copy()));
            }
        }).createProducerTemplate();
    }

    private static Map<String, Object> id(String id) {
        return Map.of(RedisDelayConstants.MESSAGE_ID, id);
    }

    @Test
    void cancelRemovesAScheduledMessageAndAnswersTrue() throws Exception {
        ProducerTemplate producer = nodeConsuming("orders");
        producer.sendBodyAndHeaders("redis-delay:orders?delay=500", "unpaid", id("order-1"));

        Object cancelled = producer.requestBodyAndHeaders("redis-delay:orders?operation=cancel", null, id("order-1"));
        Object again = producer.requestBodyAndHeaders("redis-delay:orders?operation=cancel", null, id("order-1"));

        assertThat(cancelled).isEqualTo(true);
        assertThat(again).isEqualTo(false);
        await().pollDelay(Duration.ofMillis(1000)).atMost(Duration.ofSeconds(2)).until(() -> true);
        assertThat(deliveries).isEmpty();
        assertThat(redis().getMap(key("orders", "msg")).size()).isZero();
    }

    @Test
    void cancelLeavesNoScheduledForOfAnEarlierScheduleOfTheExchange() throws Exception {
        ProducerTemplate producer = nodeConsuming("orders");
        Exchange sent = scheduledAnHourAhead(producer);
        sent.getMessage().setHeader(RedisDelayConstants.OPERATION, "cancel");

        producer.send("redis-delay:orders", sent);

        assertThat(sent.getMessage().getBody()).isEqualTo(true);
        assertNoScheduledFor(sent, "a cancelled message has no due time");
    }

    /** The exchange of an earlier schedule, which carries the due time of that message, as a delivered one does. */
    private static Exchange scheduledAnHourAhead(ProducerTemplate producer) {
        return producer.request("redis-delay:orders?delay=1h", e -> e.getMessage().setBody("unpaid"));
    }

    private static void assertNoScheduledFor(Exchange sent, String why) {
        assertThat(sent.getException()).isNull();
        assertThat(sent.getMessage().getHeader(RedisDelayConstants.SCHEDULED_FOR)).as(why).isNull();
    }

    @Test
    void aRescheduleThatAnswersFalseLeavesNoScheduledForOfAnEarlierScheduleOfTheExchange() throws Exception {
        ProducerTemplate producer = nodeConsuming("orders");
        Exchange sent = scheduledAnHourAhead(producer);
        producer.requestBodyAndHeaders("redis-delay:orders?operation=cancel", null,
                id(sent.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID, String.class)));
        sent.getMessage().setHeader(RedisDelayConstants.OPERATION, "reschedule");

        producer.send("redis-delay:orders", sent);

        assertThat(sent.getMessage().getBody()).isEqualTo(false);
        assertNoScheduledFor(sent, "the cancelled message's due time is no longer any message's");
    }

    @Test
    void aKeptDuplicateOfAMessageAlreadyReadyLeavesNoScheduledForOfAnEarlierScheduleOfTheExchange() throws Exception {
        ProducerTemplate producer = startContext().createProducerTemplate();
        producer.sendBodyAndHeaders("redis-delay:orders?delay=0", "unpaid", id("order-1"));
        await().atMost(Duration.ofSeconds(10)).until(() -> ((Map<?, ?>) producer
                .requestBody("redis-delay:orders?operation=stats", (Object) null)).get("ready").equals(1L));
        Exchange sent = scheduledAnHourAhead(producer);
        sent.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, "order-1");

        producer.send("redis-delay:orders?delay=1h", sent);

        assertThat(sent.getMessage().getHeader(RedisDelayConstants.DUPLICATE)).isEqualTo(true);
        assertNoScheduledFor(sent, "the kept message is due already: it has no due time to report");
    }

    @Test
    void aValueTooShortToBeARecordIsNoMessageToAnyOperationOnItsId() throws Exception {
        ProducerTemplate producer = nodeConsuming("orders");
        // two bytes written behind the component's back, where a record's head alone takes 15
        redis().getMap(key("orders", "msg")).put("order-1", "xx");

        Object cancelled = producer.requestBodyAndHeaders("redis-delay:orders?operation=cancel", null, id("order-1"));
        Exchange rescheduled = producer.send("redis-delay:orders?operation=reschedule&delay=1h",
                e -> e.getMessage().setHeaders(id("order-1")));
        Exchange peeked = producer.send("redis-delay:orders?operation=peek", e -> e.getMessage().setHeaders(id("order-1")));
        Exchange scheduled = producer.send("redis-delay:orders?delay=100&onDuplicate=fail", e -> {
            e.getMessage().setBody("stored over it");
            e.getMessage().setHeaders(id("order-1"));
        });

        assertThat(cancelled).as("nothing scheduled to cancel").isEqualTo(false);
        assertThat(rescheduled.getException()).isNull();
        assertThat(rescheduled.getMessage().getBody()).isEqualTo(false);
        assertThat(peeked.getException()).isNull();
        assertThat(peeked.getMessage().getHeader(RedisDelayConstants.STATE)).isNull();
        assertThat(scheduled.getException()).isNull();
        assertThat(scheduled.getMessage().getHeader(RedisDelayConstants.DUPLICATE)).isEqualTo(false);
        await().atMost(Duration.ofSeconds(5)).until(() -> deliveries.size() == 1);
        assertThat(deliveries.get(0).getBody(String.class)).isEqualTo("stored over it");
    }

    @Test
    void operationHeaderOverridesTheOption() throws Exception {
        ProducerTemplate producer = nodeConsuming("orders");
        producer.sendBodyAndHeaders("redis-delay:orders?delay=1h", "x", id("order-1"));

        Object cancelled = producer.requestBodyAndHeaders("redis-delay:orders", null,
                Map.of(RedisDelayConstants.MESSAGE_ID, "order-1", RedisDelayConstants.OPERATION, "cancel"));

        assertThat(cancelled).isEqualTo(true);
    }

    @Test
    void cancelOfAMessageInFlightAnswersFalseAndItsDeliveryGoesOn() throws Exception {
        CountDownLatch inFlight = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ProducerTemplate producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders").process(e -> {
                    inFlight.countDown();
                    release.await();
                    deliveries.add(e.getMessage().copy());
                });
            }
        }).createProducerTemplate();
        producer.sendBodyAndHeaders("redis-delay:orders", "x", id("order-1"));
        await().atMost(Duration.ofSeconds(5)).until(() -> inFlight.getCount() == 0);

        Object cancelled = producer.requestBodyAndHeaders("redis-delay:orders?operation=cancel", null, id("order-1"));
        release.countDown();

        assertThat(cancelled).isEqualTo(false);
        await().atMost(Duration.ofSeconds(5))
                .until(() -> deliveries.size() == 1 && redis().getMap(key("orders", "msg")).isEmpty());
    }

    @Test
    void rescheduleMovesADueTimeEarlierOrLater() throws Exception {
        ProducerTemplate producer = nodeConsuming("orders");
        producer.sendBodyAndHeaders("redis-delay:orders?delay=1h", "earlier", id("a"));
        producer.sendBodyAndHeaders("redis-delay:orders?delay=200", "later", id("b"));

        Exchange earlier = producer.request("redis-delay:orders?operation=reschedule&delay=300",
                e -> e.getMessage().setHeaders(id("a")));
        Exchange later
                = producer.request("redis-delay:orders?operation=reschedule&delay=1h", e -> e.getMessage().setHeaders(id("b")));
        Object unknown = producer.requestBodyAndHeaders("redis-delay:orders?operation=reschedule", null, id("nope"));

        assertThat(earlier.getMessage().getBody()).isEqualTo(true);
        assertThat(later.getMessage().getBody()).isEqualTo(true);
        assertThat(unknown).isEqualTo(false);
        await().atMost(Duration.ofSeconds(5)).until(() -> deliveries.size() == 1);
        assertThat(deliveries.get(0).getBody()).isEqualTo("earlier");
        assertThat(deliveries.get(0).getHeader(RedisDelayConstants.SCHEDULED_FOR))
                .isEqualTo(earlier.getMessage().getHeader(RedisDelayConstants.SCHEDULED_FOR));
        assertThat(dueSet("orders").dueOf("b"))
                .isEqualTo(later.getMessage().getHeader(RedisDelayConstants.SCHEDULED_FOR, Long.class));
    }

    @Test
    void scheduleOfAnExistingIdKeepsTheFirstByDefault() throws Exception {
        ProducerTemplate producer = nodeConsuming("orders");
        Exchange first = producer.request("redis-delay:orders?delay=300", e -> {
            e.getMessage().setBody("first");
            e.getMessage().setHeaders(id("order-1"));
        });
        Exchange second = producer.request("redis-delay:orders?delay=1h", e -> {
            e.getMessage().setBody("second");
            e.getMessage().setHeaders(id("order-1"));
        });

        assertThat(second.getMessage().getHeader(RedisDelayConstants.SCHEDULED_FOR))
                .isEqualTo(first.getMessage().getHeader(RedisDelayConstants.SCHEDULED_FOR));
        await().atMost(Duration.ofSeconds(5)).until(() -> deliveries.size() == 1);
        assertThat(deliveries.get(0).getBody()).isEqualTo("first");
    }

    @Test
    void scheduleWithReplaceOverwritesBodyAndDueTime() throws Exception {
        ProducerTemplate producer = nodeConsuming("orders");
        producer.sendBodyAndHeaders("redis-delay:orders?delay=1h", "first", id("order-1"));

        producer.sendBodyAndHeaders("redis-delay:orders?delay=200&onDuplicate=replace", "second", id("order-1"));

        await().atMost(Duration.ofSeconds(5)).until(() -> deliveries.size() == 1);
        assertThat(deliveries.get(0).getBody()).isEqualTo("second");
    }

    @Test
    void scheduleWithFailRaisesAnExceptionNamingTheId() throws Exception {
        ProducerTemplate producer = nodeConsuming("orders");
        producer.sendBodyAndHeaders("redis-delay:orders?delay=1h", "first", id("order-1"));

        Exchange result = producer.send("redis-delay:orders?onDuplicate=fail", e -> {
            e.getMessage().setBody("second");
            e.getMessage().setHeaders(id("order-1"));
        });

        assertThat(result.getException()).isInstanceOf(DuplicateMessageException.class)
                .hasMessageContaining("order-1").hasMessageContaining("Queue orders").hasMessageContaining("onDuplicate=fail");
        assertThat(((DuplicateMessageException) result.getException()).getExistingDueAt()).isPositive();
    }

    @Test
    void scheduleBatchStoresEachElementAsAMessageWithTheSameDueTime() throws Exception {
        ProducerTemplate producer = nodeConsuming("orders");

        Exchange sent = producer.request("redis-delay:orders?operation=scheduleBatch&delay=300", e -> {
            e.getMessage().setBody(List.of("a", "b", new byte[] { 1 }));
            e.getMessage().setHeader("tenant", "acme");
        });

        @SuppressWarnings("unchecked")
        List<String> ids = sent.getMessage().getBody(List.class);
        assertThat(ids).hasSize(3).doesNotHaveDuplicates();
        await().atMost(Duration.ofSeconds(5)).until(() -> deliveries.size() == 3);
        assertThat(deliveries).extracting(m -> m.getHeader(RedisDelayConstants.MESSAGE_ID))
                .containsExactlyInAnyOrderElementsOf(ids);
        assertThat(deliveries).allSatisfy(m -> {
            assertThat(m.getHeader("tenant")).isEqualTo("acme");
            assertThat(m.getHeader(RedisDelayConstants.SCHEDULED_FOR))
                    .isEqualTo(sent.getMessage().getHeader(RedisDelayConstants.SCHEDULED_FOR));
        });
    }

    @Test
    void scheduleBatchOfAnEmptyListStoresNothingAndGivesNoIds() throws Exception {
        ProducerTemplate producer = nodeConsuming("orders");

        Exchange sent = producer.request("redis-delay:orders?operation=scheduleBatch&delay=1h",
                e -> e.getMessage().setBody(List.of()));

        assertThat(sent.getException()).isNull();
        assertThat(sent.getMessage().getBody(List.class)).isEmpty();
        assertThat(sent.getMessage().getHeader(RedisDelayConstants.SCHEDULED_FOR)).isNull();
        assertThat(redis().getMap(key("orders", "msg")).size()).isZero();
    }

    @Test
    void scheduleBatchOfAnEmptyListLeavesNoScheduledForOfAnEarlierScheduleOrDelivery() throws Exception {
        ProducerTemplate producer = nodeConsuming("orders");

        // the exchange of a delivery, or of an earlier schedule, carries the due time of that message
        Exchange sent = producer.request("redis-delay:orders?delay=1h", e -> e.getMessage().setBody("first"));
        sent.getMessage().setHeader(RedisDelayConstants.OPERATION, "scheduleBatch");
        sent.getMessage().setBody(List.of());
        producer.send("redis-delay:orders?delay=2h", sent);

        assertThat(sent.getException()).isNull();
        assertThat(sent.getMessage().getBody(List.class)).isEmpty();
        assertThat(sent.getMessage().getHeader(RedisDelayConstants.SCHEDULED_FOR)).as("no due time was stored").isNull();
    }

    @Test
    void scheduleBatchLeavesNoMessageIdOfAnEarlierScheduleOrDeliveryForALaterCancelToFind() throws Exception {
        ProducerTemplate producer = nodeConsuming("orders");
        // the exchange of a delivery, or of an earlier schedule, carries the id of that message
        Exchange sent = producer.request("redis-delay:orders?delay=1h", e -> {
            e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, "order-1");
            e.getMessage().setBody("first");
        });
        sent.getMessage().setHeader(RedisDelayConstants.OPERATION, "scheduleBatch");
        sent.getMessage().setBody(List.of("line-1", "line-2"));
        producer.send("redis-delay:orders?delay=1h", sent);
        assertThat(sent.getException()).isNull();
        assertThat(sent.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID))
                .as("the batch's ids are its body; none of them is in the header").isNull();

        // a cancel the route sends next, meant for one of the batch's ids it did not set, must not cancel order-1
        sent.getMessage().setHeader(RedisDelayConstants.OPERATION, "cancel");
        producer.send("redis-delay:orders", sent);

        assertThat(redis().getMap(key("orders", "msg")).keySet()).as("order-1 and the two lines").hasSize(3)
                .contains("order-1");
    }

    @Test
    void scheduleBatchStoresANullElementAsAMessageWithNoBody() throws Exception {
        ProducerTemplate producer = nodeConsuming("orders");

        List<?> ids = producer.requestBody("redis-delay:orders?operation=scheduleBatch", Arrays.asList("a", null),
                List.class);

        assertThat(ids).hasSize(2);
        await().atMost(Duration.ofSeconds(5)).until(() -> deliveries.size() == 2);
        assertThat(deliveries).filteredOn(m -> ids.get(1).equals(m.getHeader(RedisDelayConstants.MESSAGE_ID)))
                .singleElement().satisfies(m -> assertThat(m.getBody()).isNull());
    }

    @Test
    void scheduleBatchNamedInTheOperationHeaderStoresEachElement() throws Exception {
        ProducerTemplate producer = nodeConsuming("orders");

        List<?> ids = producer.requestBodyAndHeader("redis-delay:orders?delay=1h", List.of("a", "b"),
                RedisDelayConstants.OPERATION, "scheduleBatch", List.class);
        List<?> moreIds = producer.requestBodyAndHeader("redis-delay:orders?delay=1h", List.of("c"),
                RedisDelayConstants.OPERATION, " SCHEDULEBATCH ", List.class);

        assertThat(ids).hasSize(2).doesNotHaveDuplicates();
        assertThat(moreIds).hasSize(1);
        assertThat(dueSet("orders").size()).isEqualTo(3);
    }

    @Test
    void scheduleBatchLargerThanOneScriptCallTakesStoresEveryMessage() throws Exception {
        ProducerTemplate producer = nodeConsuming("orders");
        List<Object> bodies = new ArrayList<>();
        IntStream.range(0, 2_500).forEach(i -> bodies.add("small-" + i));
        IntStream.range(0, 4).forEach(i -> bodies.add(new byte[400_000]));

        List<?> ids = producer.requestBody("redis-delay:orders?operation=scheduleBatch&delay=1h", bodies, List.class);

        assertThat(ids).hasSize(2_504).doesNotHaveDuplicates();
        assertThat(dueSet("orders").size()).isEqualTo(2_504);
        assertThat(redis().getMap(key("orders", "msg")).size()).isEqualTo(2_504);
    }

    @Test
    void scheduleBatchCallsCarryAtMostOneMegabyteOfEnvelopesUnlessOneMessageIsLarger() throws Exception {
        ProducerTemplate producer = startContext().createProducerTemplate();
        // loads the script: a first call that Redis refuses as unknown would be logged too
        producer.sendBody("redis-delay:orders?delay=1h", "first");
        List<Object> bodies = new ArrayList<>();
        // no two of them fit in one megabyte
        IntStream.range(0, 6).forEach(i -> bodies.add(new byte[700 * 1024]));

        SlowCalls calls = SlowCalls.record(RedisServerExtension.process()
                .orElseThrow(() -> new IllegalStateException("this test reads the slowlog of its private redis-server")), 0, 0);
        try {
            assertThat(producer.requestBody("redis-delay:orders?operation=scheduleBatch&delay=1h", bodies, List.class))
                    .hasSize(6);
            assertThat(calls.byCommand().get("schedule script").getCount()).as("schedule script calls").isEqualTo(6);
        } finally {
            calls.stop();
        }
    }
}
