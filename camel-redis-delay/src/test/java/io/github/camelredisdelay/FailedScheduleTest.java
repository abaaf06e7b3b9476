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
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;

import io.github.camelredisdelay.internal.ShardTags;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.redisson.client.codec.StringCodec;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A schedule can fail after Redis stored the message: too few replicas acknowledged it in time, or the reply was lost.
 * Its exchange then carries the id the message was stored under, generated or not, so that retrying it (Camel's
 * redelivery, or the caller) stores no second copy.
 */
class FailedScheduleTest extends RedisDelayTestSupport {

    @Test
    void aScheduleThatFailedAfterItWasStoredIsRedeliveredUnderTheSameGeneratedId() throws Exception {
        var producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                onException(NotReplicatedException.class).maximumRedeliveries(2).redeliveryDelay(0);
                // no replica answers: each try is stored, then fails waiting for one
                from("direct:schedule").to("redis-delay:orders?delay=1h&syncReplicas=1&syncTimeout=50");
            }
        }).createProducerTemplate();

        Exchange result = producer.send("direct:schedule", e -> e.getMessage().setBody("order-1"));

        assertThat(result.getException()).isInstanceOf(NotReplicatedException.class);
        String id = result.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID, String.class);
        assertThat(id).isNotNull();
        assertThat(redis().getMap(key("orders", "msg")).keySet()).containsExactly(id);
    }

    /**
     * Concurrent schedules share script calls, and the exchanges of one call continue one after another on one
     * completion thread. When their schedules fail, each exchange's error handling runs there: a redelivery delay that
     * sleeps (Camel's, without asyncDelayedRedelivery) must not hold up the other exchanges of the call, each of which
     * would then wait for the delays of all before it.
     */
    @Test
    void aRedeliveryDelayOfAFailedScheduleDoesNotHoldUpTheOtherExchangesOfItsCall() throws Exception {
        var producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                // quiet: twenty stack traces would only load a busy machine
                onException(NotReplicatedException.class).maximumRedeliveries(1).redeliveryDelay(1000).logExhausted(false);
                // no replica answers: each try fails after 50 ms
                from("direct:schedule").to("redis-delay:orders?delay=1h&syncReplicas=1&syncTimeout=50");
            }
        }).createProducerTemplate();
        // the queue checked: the twenty below go to Redis at once, most of them in one call
        producer.send("direct:schedule", e -> e.getMessage().setBody("order-0"));
        ExecutorService callers = Executors.newFixedThreadPool(20);
        try {
            List<CompletableFuture<Exchange>> sent = IntStream.rangeClosed(1, 20)
                    .mapToObj(n -> CompletableFuture.supplyAsync(
                            () -> producer.send("direct:schedule", e -> e.getMessage().setBody("order-" + n)), callers))
                    .toList();

            // each waits its own 1 s delay, all at once: about 1 s in all, not 1 s for each exchange before it (20 s)
            assertThat(CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)))
                    .as("every exchange redelivered once and failed").succeedsWithin(Duration.ofSeconds(10));
            assertThat(sent).allSatisfy(done -> assertThat(done.join().getException())
                    .isInstanceOf(NotReplicatedException.class));
        } finally {
            callers.shutdownNow();
        }
    }

    /**
     * A retry within the exchange (a doCatch, a loop) keeps the headers, the generated id among them, which the failed
     * try put there before its call: the copy stored under it is the exchange's own, not another message's.
     */
    @Test
    void aScheduleRetriedInADoCatchAfterItWasStoredKeepsItsOwnCopyUnderItsGeneratedIdWithoutADuplicate()
            throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        CamelContext context = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:schedule").doTry()
                        // no replica answers: stored, then fails waiting for one
                        .to("redis-delay:orders?delay=1h&syncReplicas=1&syncTimeout=50")
                        .doCatch(NotReplicatedException.class)
                        .to("redis-delay:orders?delay=1h&onDuplicate=fail").end();
            }
        });
        context.getRegistry().bind("metricsRegistry", registry);
        context.start();

        Exchange result = context.createProducerTemplate().send("direct:schedule", e -> e.getMessage().setBody("order-1"));

        assertThat(result.getException()).as("the exchange's own copy is no duplicate").isNull();
        assertThat(result.getMessage().getHeader(RedisDelayConstants.DUPLICATE)).isEqualTo(false);
        String id = result.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID, String.class);
        assertThat(redis().getMap(key("orders", "msg")).keySet()).containsExactly(id);
        assertThat(registry.get("camel.redis.delay.scheduled").tag("queue", "orders").counter().count())
                .as("the one message stored, counted once").isEqualTo(1.0);
    }

    @ParameterizedTest
    @ValueSource(booleans = { false, true })
    void aBatchThatFailedAfterItWasStoredIsRedeliveredUnderTheSameGeneratedIds(boolean iteratorBody) throws Exception {
        var producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                onException(NotReplicatedException.class).maximumRedeliveries(2).redeliveryDelay(0);
                // no replica answers: each try is stored, then fails waiting for one
                from("direct:schedule")
                        .to("redis-delay:orders?operation=scheduleBatch&delay=1h&syncReplicas=1&syncTimeout=50");
            }
        }).createProducerTemplate();

        List<String> orders = List.of("order-1", "order-2");
        // an Iterator is read once: each redelivery must still store (and report on) the same elements
        Exchange result = producer.send("direct:schedule",
                e -> e.getMessage().setBody(iteratorBody ? orders.iterator() : orders));

        assertThat(result.getException()).isInstanceOf(NotReplicatedException.class);
        assertThat(redis().getMap(key("orders", "msg")).size()).as("one copy of each element").isEqualTo(2);
    }

    @Test
    void aBatchOfAnIteratorThatFailedWhileItWasReadFailsAgainWhenRedeliveredRatherThanStoringTheRest() throws Exception {
        var producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                onException(IllegalStateException.class).maximumRedeliveries(1).redeliveryDelay(0);
                from("direct:schedule").to("redis-delay:orders?operation=scheduleBatch&delay=1h");
            }
        }).createProducerTemplate();
        // fails once, as it is asked for its second element: a redelivery would go on with the third
        Iterator<String> orders = new Iterator<>() {
            private final List<String> elements = List.of("order-1", "order-2", "order-3");
            private int read;

            @Override
            public boolean hasNext() {
                return read < elements.size();
            }

            @Override
            public String next() {
                read++;
                if (read == 2) {
                    throw new IllegalStateException("the source of the batch failed");
                }
                return elements.get(read - 1);
            }
        };

        Exchange result = producer.send("direct:schedule", e -> e.getMessage().setBody(orders));

        assertThat(result.getException()).isInstanceOf(IllegalStateException.class);
        assertThat(redis().getMap(key("orders", "msg")).size()).as("nothing of a batch that was not read whole").isZero();
    }

    @Test
    void aBatchOfAnIteratorThatFailedOnAnElementFailsAgainWhenRedeliveredRatherThanStoringTheRest() throws Exception {
        var producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                onException(IllegalArgumentException.class).maximumRedeliveries(1).redeliveryDelay(0);
                from("direct:schedule").to("redis-delay:orders?operation=scheduleBatch&delay=1h");
            }
        }).createProducerTemplate();

        // the second element cannot be stored: the first try read two elements before it failed
        Exchange result = producer.send("direct:schedule",
                e -> e.getMessage().setBody(List.of("order-1", new Object(), "order-3").iterator()));

        assertThat(result.getException()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot be stored on queue orders");
        assertThat(redis().getMap(key("orders", "msg")).size()).as("nothing of a batch that failed").isZero();
    }

    /**
     * A batch's messages have generated ids, so {@code onDuplicate} does not apply: a batch retried within the exchange
     * after Redis stored it keeps the copies stored under its ids as its own, and says no duplicate, as a schedule of a
     * generated id does (and whatever an earlier schedule of the exchange said).
     */
    @Test
    void aBatchRetriedInADoCatchAfterItWasStoredKeepsItsCopiesAndSaysNoDuplicate() throws Exception {
        var producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:schedule").doTry()
                        // no replica answers: stored, then fails waiting for one
                        .to("redis-delay:orders?operation=scheduleBatch&delay=1h&syncReplicas=1&syncTimeout=50")
                        .doCatch(NotReplicatedException.class)
                        .to("redis-delay:orders?operation=scheduleBatch&delay=1h&onDuplicate=fail").end();
            }
        }).createProducerTemplate();

        Exchange result = producer.send("direct:schedule", e -> {
            e.getMessage().setBody(List.of("order-1", "order-2"));
            e.getMessage().setHeader(RedisDelayConstants.DUPLICATE, true);
        });

        assertThat(result.getException()).isNull();
        assertThat(result.getMessage().getHeader(RedisDelayConstants.DUPLICATE)).isEqualTo(false);
        assertThat(redis().getMap(key("orders", "msg")).keySet()).as("one copy of each element, under the batch's ids")
                .containsExactlyInAnyOrderElementsOf(result.getMessage().getBody(List.class));
    }

    @Test
    void aBatchOfAnotherBodyAfterAHandledFailureDrawsIdsOfItsOwn() throws Exception {
        var producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:schedule").doTry()
                        .to("redis-delay:orders?operation=scheduleBatch&delay=1h&syncReplicas=1&syncTimeout=50")
                        .doCatch(NotReplicatedException.class)
                        // stored, but not replicated: the route goes on with other messages
                        .setBody(constant(List.of("other-1", "other-2")))
                        .to("redis-delay:orders?operation=scheduleBatch&delay=1h").end();
            }
        }).createProducerTemplate();

        producer.send("direct:schedule", e -> e.getMessage().setBody(List.of("order-1", "order-2")));

        assertThat(redis().getMap(key("orders", "msg")).size()).as("both batches stored").isEqualTo(4);
    }

    @Test
    void aShardedBatchThatFailedAfterAShardStoredItsMessagesSaysWhichWereStored() throws Exception {
        var producer = startContext().createProducerTemplate();
        List<String> orders = IntStream.range(0, 6).mapToObj(i -> "order-" + i).toList();
        Exchange failed = null;
        Set<String> stored = Set.of();
        // a shard's call goes when the batch's first id on it comes: on a fresh queue per try, until the shard that
        // fails comes after the other (a try in two, about)
        for (int i = 0; i < 30 && stored.isEmpty(); i++) {
            String queue = "orders-" + i;
            // the second shard's message hash is no hash: its call fails, storing nothing
            redis().getBucket(key(ShardTags.of(queue, 2).get(1), "msg"), StringCodec.INSTANCE).set("not a hash");
            failed = producer.send("redis-delay:" + queue + "?operation=scheduleBatch&delay=1h&shards=2",
                    e -> e.getMessage().setBody(orders));
            if (failed.getException() != null) {
                stored = redis().<String, Object>getMap(key(queue, "msg"), StringCodec.INSTANCE).keySet();
            }
        }

        assertThat(stored).as("a try whose healthy shard went first").isNotEmpty();
        assertThat(failed.getException().getMessage())
                .as("the failure says the batch was stored in part, and which")
                .contains("stored " + stored.size() + " of 6 messages").contains(stored);
    }
}
