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
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelExecutionException;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.support.processor.idempotent.MemoryIdempotentRepository;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Schedules of an id whose message is being delivered: the "check again later" loop of a route that re-delays the
 * message it processes, and schedules of that id from elsewhere, under each onDuplicate rule.
 */
class RedelayTest extends RedisDelayTestSupport {

    private final List<Message> deliveries = new CopyOnWriteArrayList<>();
    /** Opens the deliveries {@link #orderInFlight} holds. */
    private final CountDownLatch release = new CountDownLatch(1);

    @Test
    void messageRedelayedByTheRouteProcessingItIsDeliveredAgainUntilTheLoopEnds() throws Exception {
        ProducerTemplate producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders").process(e -> deliveries.add(e.getMessage().copy()))
                        .filter(e -> deliveries.size() < 4)
                        .setBody(e -> "check " + (deliveries.size() + 1))
                        .setHeader("attempt", () -> deliveries.size())
                        .to("redis-delay:orders?delay=100");
            }
        }).createProducerTemplate();

        producer.sendBodyAndHeader("redis-delay:orders", "check 1", RedisDelayConstants.MESSAGE_ID, "order-1");

        await().atMost(Duration.ofSeconds(10)).until(() -> deliveries.size() == 4);
        assertThat(deliveries).extracting(Message::getBody).containsExactly("check 1", "check 2", "check 3", "check 4");
        assertThat(deliveries).extracting(m -> m.getHeader(RedisDelayConstants.MESSAGE_ID)).containsOnly("order-1");
        assertThat(deliveries.get(3).getHeader("attempt")).isEqualTo(3);
        await().atMost(Duration.ofSeconds(5)).until(() -> redis().getMap(key("orders", "msg")).isEmpty());
    }

    @Test
    void redelayWinsOverARetryOfTheSameFailedDelivery() throws Exception {
        assertRedelayWinsOverTheFailureOfItsDelivery("retrySchedule=50&maxDeliveries=5");
    }

    @Test
    void redelayWinsOverDeadLetteringTheSameFailedDelivery() throws Exception {
        assertRedelayWinsOverTheFailureOfItsDelivery("maxDeliveries=1");
    }

    /**
     * A route whose first delivery re-delays the message with a new body and then fails: the re-delayed version is
     * delivered, once, with a fresh delivery count; the failed one is neither retried nor dead-lettered.
     */
    private void assertRedelayWinsOverTheFailureOfItsDelivery(String consumerOptions) throws Exception {
        List<Message> deadLetters = new CopyOnWriteArrayList<>();
        ProducerTemplate producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from("redis-delay:orders?" + consumerOptions).process(e -> deliveries.add(e.getMessage().copy()))
                        .filter(e -> deliveries.size() == 1)
                        .setBody(constant("re-delayed"))
                        .to("redis-delay:orders?delay=300")
                        .throwException(new IllegalStateException("failed after the re-delay"));
                from("redis-delay:orders.dead").process(e -> deadLetters.add(e.getMessage().copy()));
            }
        }).createProducerTemplate();

        producer.sendBodyAndHeader("redis-delay:orders", "first", RedisDelayConstants.MESSAGE_ID, "order-1");

        await().atMost(Duration.ofSeconds(10)).until(() -> deliveries.size() == 2);
        assertThat(deliveries).extracting(Message::getBody).containsExactly("first", "re-delayed");
        assertThat(deliveries.get(1).getHeader(RedisDelayConstants.DELIVERY_COUNT)).isEqualTo(1);
        await().atMost(Duration.ofSeconds(5)).until(() -> redis().getMap(key("orders", "msg")).isEmpty());
        assertThat(deliveries).as("no retry of the failed version").hasSize(2);
        assertThat(deadLetters).isEmpty();
        assertThat(redis().getMap(key("orders.dead", "msg")).isExists()).isFalse();
    }

    /**
     * Starts a route that holds each delivery until {@link #release} opens, schedules "v1" as order-1 and waits until
     * its delivery is in flight.
     */
    private ProducerTemplate orderInFlight() throws Exception {
        CountDownLatch delivered = new CountDownLatch(1);
        ProducerTemplate producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders").process(e -> {
                    deliveries.add(e.getMessage().copy());
                    delivered.countDown();
                    assertThat(release.await(10, TimeUnit.SECONDS)).isTrue();
                });
            }
        }).createProducerTemplate();
        producer.sendBodyAndHeader("redis-delay:orders", "v1", RedisDelayConstants.MESSAGE_ID, "order-1");
        assertThat(delivered.await(10, TimeUnit.SECONDS)).isTrue();
        return producer;
    }

    @Test
    void scheduleWithKeepOfAnIdInFlightElsewhereStoresNothingAndSaysItIsADuplicate() throws Exception {
        ProducerTemplate producer = orderInFlight();

        Exchange second = producer.request("redis-delay:orders?delay=100",
                e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, "order-1"));
        release.countDown();

        assertThat(second.getMessage().getHeader(RedisDelayConstants.DUPLICATE)).isEqualTo(true);
        await().atMost(Duration.ofSeconds(5)).until(() -> redis().getMap(key("orders", "msg")).isEmpty());
        assertThat(deliveries).hasSize(1);
    }

    @Test
    void scheduleWithReplaceOfAnIdInFlightElsewhereIsDeliveredAfterIt() throws Exception {
        ProducerTemplate producer = orderInFlight();

        Exchange second = producer.request("redis-delay:orders?delay=200&onDuplicate=replace", e -> {
            e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, "order-1");
            e.getMessage().setBody("v2");
        });
        release.countDown();

        assertThat(second.getMessage().getHeader(RedisDelayConstants.DUPLICATE)).isEqualTo(false);
        await().atMost(Duration.ofSeconds(10)).until(() -> deliveries.size() == 2);
        assertThat(deliveries).extracting(Message::getBody).containsExactly("v1", "v2");
        await().atMost(Duration.ofSeconds(5)).until(() -> redis().getMap(key("orders", "msg")).isEmpty());
    }

    @Test
    void scheduleWithFailOfAnIdInFlightElsewhereFails() throws Exception {
        ProducerTemplate producer = orderInFlight();

        assertThatThrownBy(() -> producer.sendBodyAndHeader("redis-delay:orders?onDuplicate=fail", "v2",
                RedisDelayConstants.MESSAGE_ID, "order-1"))
                .isInstanceOf(CamelExecutionException.class).hasCauseInstanceOf(DuplicateMessageException.class);
        release.countDown();
        await().atMost(Duration.ofSeconds(5)).until(() -> redis().getMap(key("orders", "msg")).isEmpty());
        assertThat(deliveries).hasSize(1);
    }

    /**
     * A re-delayed message keeps its id, so an Idempotent Consumer keyed by the id alone would skip the re-delayed
     * check (and acknowledge it unprocessed). Keyed by the id and CamelRedisDelayScheduledAt, as the component page
     * says, it lets each re-delayed version through: a re-delay sets a new scheduled-at, a retry keeps it.
     */
    @Test
    void anIdempotentConsumerKeyedByIdAndScheduledAtLetsEachReDelayedVersionThrough() throws Exception {
        ProducerTemplate producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from("redis-delay:orders?retrySchedule=50")
                        .idempotentConsumer(simple("${header.CamelRedisDelayMessageId}@${header.CamelRedisDelayScheduledAt}"),
                                MemoryIdempotentRepository.memoryIdempotentRepository())
                        .process(e -> deliveries.add(e.getMessage().copy()))
                        .choice()
                        .when(e -> deliveries.size() == 1).setHeader("check", constant(2)).to("redis-delay:orders?delay=100")
                        .when(e -> deliveries.size() == 2).throwException(new IllegalStateException("payments down"))
                        .end();
            }
        }).createProducerTemplate();

        producer.sendBodyAndHeader("redis-delay:orders", "order-1", RedisDelayConstants.MESSAGE_ID, "order-1");

        await().atMost(Duration.ofSeconds(10)).until(() -> deliveries.size() == 3);
        assertThat(deliveries).extracting(m -> m.getHeader("check")).containsExactly(null, 2, 2);
        assertThat(deliveries).extracting(m -> m.getHeader(RedisDelayConstants.DELIVERY_COUNT)).containsExactly(1, 1, 2);
        Object[] scheduledAt = deliveries.stream().map(m -> m.getHeader(RedisDelayConstants.SCHEDULED_AT)).toArray();
        assertThat(scheduledAt[1]).as("a re-delay sets it anew").isNotEqualTo(scheduledAt[0]);
        assertThat(scheduledAt[2]).as("a retry keeps it").isEqualTo(scheduledAt[1]);
        await().atMost(Duration.ofSeconds(5)).until(() -> redis().getMap(key("orders", "msg")).isEmpty());
    }

    @Test
    void everyScheduleSaysWhetherItsBodyWasStored() throws Exception {
        ProducerTemplate producer = startContext().createProducerTemplate();

        Exchange first = producer.request("redis-delay:orders?delay=1h",
                e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, "order-1"));
        Exchange kept = producer.request("redis-delay:orders?delay=1h",
                e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, "order-1"));
        Exchange replaced = producer.request("redis-delay:orders?delay=1h&onDuplicate=replace",
                e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, "order-1"));
        Exchange batch = producer.request("redis-delay:orders?delay=1h&operation=scheduleBatch",
                e -> e.getMessage().setBody(List.of("a", "b")));

        assertThat(first.getMessage().getHeader(RedisDelayConstants.DUPLICATE)).isEqualTo(false);
        assertThat(kept.getMessage().getHeader(RedisDelayConstants.DUPLICATE)).isEqualTo(true);
        assertThat(replaced.getMessage().getHeader(RedisDelayConstants.DUPLICATE)).isEqualTo(false);
        assertThat(batch.getMessage().getHeader(RedisDelayConstants.DUPLICATE)).isEqualTo(false);
    }
}
