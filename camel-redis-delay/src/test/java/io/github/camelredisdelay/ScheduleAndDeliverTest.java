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
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class ScheduleAndDeliverTest extends RedisDelayTestSupport {

    /** A delivered exchange and the local time it arrived at. */
    record Arrival(Exchange exchange, long receivedAt) {
    }

    private final List<Arrival> arrivals = new CopyOnWriteArrayList<>();

    private CamelContext nodeConsuming(String queue) throws Exception {
        return startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:" + queue).process(e -> arrivals.add(new Arrival(e.copy(), System.currentTimeMillis())));
            }
        });
    }

    @Test
    void messageIsNotDeliveredBeforeItIsDueAndSoonAfter() throws Exception {
        ProducerTemplate producer = nodeConsuming("orders").createProducerTemplate();

        Exchange sent = producer.send("redis-delay:orders?delay=1000", e -> e.getMessage().setBody("order-1"));

        long scheduledFor = sent.getMessage().getHeader(RedisDelayConstants.SCHEDULED_FOR, Long.class);
        await().atMost(Duration.ofSeconds(10)).until(() -> arrivals.size() == 1);
        Arrival arrival = arrivals.get(0);
        assertThat(arrival.receivedAt()).isGreaterThanOrEqualTo(scheduledFor);
        assertThat(arrival.receivedAt() - scheduledFor).as("lateness in ms").isLessThan(1000);
        assertThat(arrival.exchange().getMessage().getBody()).isEqualTo("order-1");
    }

    @Test
    void producerReportsTheIdAndTheDueTimeItStored() throws Exception {
        ProducerTemplate producer = nodeConsuming("orders").createProducerTemplate();

        Exchange generated = producer.send("redis-delay:orders?delay=1h", e -> e.getMessage().setBody("x"));
        Exchange given = producer.send("redis-delay:orders?delay=1h", e -> {
            e.getMessage().setBody("y");
            e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, "order-42");
        });

        assertThat(generated.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID, String.class)).hasSize(16);
        assertThat(given.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID)).isEqualTo("order-42");
        long dueAt = given.getMessage().getHeader(RedisDelayConstants.SCHEDULED_FOR, Long.class);
        assertThat(dueAt - System.currentTimeMillis()).isBetween(3_590_000L, 3_600_000L);
        assertThat(dueSet("orders").dueOf("order-42")).isEqualTo(dueAt);
    }

    @Test
    void delayHeaderOverridesTheDelayOption() throws Exception {
        ProducerTemplate producer = nodeConsuming("orders").createProducerTemplate();

        producer.sendBodyAndHeader("redis-delay:orders?delay=1h", "millis", RedisDelayConstants.DELAY, 300L);
        producer.sendBodyAndHeader("redis-delay:orders?delay=1h", "duration", RedisDelayConstants.DELAY,
                Duration.ofMillis(300));
        producer.sendBodyAndHeader("redis-delay:orders?delay=1h", "text", RedisDelayConstants.DELAY, "1s");

        await().atMost(Duration.ofSeconds(10)).until(() -> arrivals.size() == 3);
        assertThat(arrivals).extracting(a -> a.exchange().getMessage().getBody())
                .containsExactlyInAnyOrder("millis", "duration", "text");
    }

    @Test
    void dueAtInThePastIsDeliveredAtOnceAndWinsOverTheDelay() throws Exception {
        ProducerTemplate producer = nodeConsuming("orders").createProducerTemplate();

        producer.sendBodyAndHeaders("redis-delay:orders?delay=1h", "past",
                Map.of(RedisDelayConstants.DUE_AT, Instant.now().minusSeconds(60), RedisDelayConstants.DELAY, "1h"));
        producer.sendBodyAndHeader("redis-delay:orders?delay=1h", "soon", RedisDelayConstants.DUE_AT,
                new Date(System.currentTimeMillis() + 500));

        await().atMost(Duration.ofSeconds(10)).until(() -> arrivals.size() == 2);
        assertThat(arrivals.get(0).exchange().getMessage().getBody()).isEqualTo("past");
    }

    @Test
    void stringAndBytesBodiesAndTypedHeadersRoundTrip() throws Exception {
        ProducerTemplate producer = nodeConsuming("orders").createProducerTemplate();
        Instant instant = Instant.parse("2030-01-02T03:04:05.123456789Z");
        Map<String, Object> headers = Map.of("text", "é✓", "long", 5_000_000_000L, "int", 7, "double", 1.5,
                "flag", true, "date", new Date(1_000L), "instant", instant);

        producer.sendBodyAndHeaders("redis-delay:orders", "plain text", headers);
        producer.sendBody("redis-delay:orders", new byte[] { 0, -1, 2 });
        producer.sendBody("redis-delay:orders", null);

        await().atMost(Duration.ofSeconds(10)).until(() -> arrivals.size() == 3);
        Exchange text = find("plain text");
        assertThat(text.getMessage().getHeaders()).containsAllEntriesOf(headers);
        assertThat(arrivals).extracting(a -> a.exchange().getMessage().getBody())
                .anySatisfy(body -> assertThat(body).isEqualTo(new byte[] { 0, -1, 2 }))
                .anySatisfy(body -> assertThat(body).isNull());
    }

    @Test
    void deliveredExchangeCarriesTheDeliveryHeaders() throws Exception {
        ProducerTemplate producer = nodeConsuming("orders").createProducerTemplate();

        Exchange sent = producer.send("redis-delay:orders?delay=200", e -> e.getMessage().setBody("x"));

        await().atMost(Duration.ofSeconds(10)).until(() -> arrivals.size() == 1);
        var delivered = arrivals.get(0).exchange().getMessage();
        assertThat(delivered.getHeader(RedisDelayConstants.MESSAGE_ID))
                .isEqualTo(sent.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID));
        assertThat(delivered.getHeader(RedisDelayConstants.SCHEDULED_FOR))
                .isEqualTo(sent.getMessage().getHeader(RedisDelayConstants.SCHEDULED_FOR));
        assertThat(delivered.getHeader(RedisDelayConstants.DELIVERY_COUNT)).isEqualTo(1);
        assertThat(delivered.getHeader(RedisDelayConstants.QUEUE)).isEqualTo("orders");
        assertThat(delivered.getHeader(RedisDelayConstants.SCHEDULED_AT, Long.class))
                .isBetween(sent.getMessage().getHeader(RedisDelayConstants.SCHEDULED_FOR, Long.class) - 300,
                        sent.getMessage().getHeader(RedisDelayConstants.SCHEDULED_FOR, Long.class) - 200);
        assertThat(delivered.getHeaders()).doesNotContainKeys(RedisDelayConstants.DELAY, RedisDelayConstants.DUE_AT,
                RedisDelayConstants.OPERATION);
    }

    @Test
    void aRouteThatLeavesItsThreadInterruptedDoesNotStopTheConsumer() throws Exception {
        List<String> bodies = new CopyOnWriteArrayList<>();
        ProducerTemplate producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders").process(e -> {
                    bodies.add(e.getMessage().getBody(String.class));
                    if (bodies.size() == 1) {
                        // as code that catches an InterruptedException and sets the flag again does
                        Thread.currentThread().interrupt();
                    }
                });
            }
        }).createProducerTemplate();

        producer.sendBody("redis-delay:orders", "a");
        await().atMost(Duration.ofSeconds(10)).until(() -> bodies.size() == 1);
        producer.sendBody("redis-delay:orders", "b");

        await().atMost(Duration.ofSeconds(10)).until(() -> bodies.size() == 2);
        assertThat(bodies).containsExactly("a", "b");
    }

    @Test
    void acknowledgedMessageLeavesNothingInRedis() throws Exception {
        ProducerTemplate producer = nodeConsuming("orders").createProducerTemplate();

        producer.sendBody("redis-delay:orders?delay=100", "x");

        await().atMost(Duration.ofSeconds(10)).until(() -> arrivals.size() == 1);
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(redis().getMap(key("orders", "msg")).size()).isZero();
            assertThat(redis().getScoredSortedSet(key("orders", "due")).size()).isZero();
            assertThat(redis().getStream(key("orders", "ready")).size()).isZero();
        });
    }

    @Test
    void anExchangeScheduledTwiceOntoOneQueueIsADuplicateUnlessItsGeneratedIdIsRemovedInBetween() throws Exception {
        CamelContext node = nodeConsuming("reminders");
        node.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:twice").to("redis-delay:reminders?delay=100").to("redis-delay:reminders?delay=200");
                from("direct:apart").to("redis-delay:reminders?delay=100").removeHeader(RedisDelayConstants.MESSAGE_ID)
                        .to("redis-delay:reminders?delay=200");
            }
        });
        ProducerTemplate producer = node.createProducerTemplate();

        Exchange twice = producer.request("direct:twice", e -> e.getMessage().setBody("twice"));
        Exchange apart = producer.request("direct:apart", e -> e.getMessage().setBody("apart"));

        assertThat(twice.getMessage().getHeader(RedisDelayConstants.DUPLICATE)).isEqualTo(true);
        assertThat(apart.getMessage().getHeader(RedisDelayConstants.DUPLICATE)).isEqualTo(false);
        await().atMost(Duration.ofSeconds(10)).until(() -> arrivals.size() == 3);
        assertThat(arrivals).extracting(arrival -> arrival.exchange().getMessage().getBody())
                .containsExactlyInAnyOrder("twice", "apart", "apart");
    }

    private Exchange find(Object body) {
        return arrivals.stream().map(Arrival::exchange).filter(e -> body.equals(e.getMessage().getBody())).findFirst()
                .orElseThrow();
    }
}
