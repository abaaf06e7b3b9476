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
import java.util.LongSummaryStatistics;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.internal.ConnectedClient;
import io.github.camelredisdelay.internal.Delivery;
import io.github.camelredisdelay.internal.QueueKeys;
import io.github.camelredisdelay.internal.QueueShard;
import io.github.camelredisdelay.test.NeedsRedisProcess;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.github.camelredisdelay.test.RedisServerExtension;
import io.github.camelredisdelay.test.SlowCalls;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A queue whose consumers hold many messages at once (a long pending list: a slow route with a large
 * maxMessagesPerPoll, many consumer threads, or leases of a consumer that died with a long visibility timeout), or
 * whose dead-letter queue holds many: no single call on it may keep Redis busy for time that grows with the number
 * held. The holder here is a consumer of the group that read them with {@code XREADGROUP} and named a long visibility
 * timeout, as the component's consumers do. Needs the private redis-server of the test harness (it changes its slowlog
 * settings).
 */
@NeedsRedisProcess
class LongPendingListTest extends RedisDelayTestSupport {

    /** A held consumer's name: its lease, 10 minutes, keeps every other consumer from taking its messages over. */
    private static final String HOLDER = "holder~600000";

    /**
     * Runs of a read that changes nothing, while one of its calls was slow: a loaded machine that takes Redis off the
     * CPU during a call slows one run, a call slow by its work every run.
     */
    private static final int TRIES = 3;

    private SlowCalls slowCalls;

    @AfterEach
    void stopRecording() {
        if (slowCalls != null) {
            slowCalls.stop();
        }
    }

    /**
     * A peek reads at most a page of the stream (about 1 ms here); reading every held entry took 27-30 ms with 20,000
     * held.
     */
    @Test
    void peekOfMessagesBehindTwentyThousandInFlightKeepsRedisBusyForLessThanFifteenMs() throws Exception {
        peeksKeepRedisBusyForLessThan(20_000, 15);
    }

    /** Reading every held entry took 300-460 ms with 200,000 held. */
    @Test
    @Tag("slow")
    void peekOfMessagesBehindTwoHundredThousandInFlightKeepsRedisBusyForLessThanFifteenMs() throws Exception {
        peeksKeepRedisBusyForLessThan(200_000, 15);
    }

    /**
     * A consumer's look for expired leases reads a bounded stretch of the pending list; reading it to the end to find
     * handed-back entries, where none is, took 15-17 ms with 99,000 held and grows with the number held.
     */
    @Test
    @Tag("slow")
    void lookForExpiredLeasesBehindThreeHundredThousandInFlightKeepsRedisBusyForLessThanFifteenMs() throws Exception {
        RedisServerProcess server = RedisServerExtension.process().orElseThrow();
        CamelContext node = startContext();
        scheduleNow(node.createProducerTemplate(), "orders", 300_000);
        hold(server, "orders", 300_000);

        slowCalls = SlowCalls.record(server, 15_000, 1);
        AtomicInteger delivered = new AtomicInteger();
        // a consumer's first fetch looks for expired leases from the start of the pending list
        node.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders").process(e -> delivered.incrementAndGet());
            }
        });
        node.createProducerTemplate().sendBodyAndHeader("redis-delay:orders", "ready",
                RedisDelayConstants.MESSAGE_ID, "ready-0");
        await().atMost(Duration.ofSeconds(20)).until(() -> delivered.get() == 1);
        Map<String, LongSummaryStatistics> slow = slowCalls.byCommand();

        assertThat(slow).as("calls slower than 15 ms: %s", SlowCalls.describe(slow)).isEmpty();
    }

    /**
     * The statistics count the messages handed back among those in flight: reading the pending list to its end to find
     * them, where none is, took 5.6-8.4 ms with 99,000 held and grows with the number held.
     */
    @Test
    @Tag("slow")
    void statisticsBehindThreeHundredThousandInFlightKeepRedisBusyForLessThanFifteenMs() throws Exception {
        RedisServerProcess server = RedisServerExtension.process().orElseThrow();
        ProducerTemplate producer = startContext().createProducerTemplate();
        scheduleNow(producer, "orders", 300_000);
        hold(server, "orders", 300_000);
        producer.sendBodyAndHeader("redis-delay:orders", "ready", RedisDelayConstants.MESSAGE_ID, "ready-0");

        @SuppressWarnings("unchecked")
        SlowCalls.Quickest<Map<String, Object>> stats = SlowCalls.quickestOf(server, 15_000, TRIES,
                () -> producer.requestBody("redis-delay:orders?operation=stats", null, Map.class));

        assertThat(stats.result()).containsEntry("inFlight", 300_000L).containsEntry("ready", 1L);
        assertThat(stats.slow()).as("calls slower than 15 ms: %s", SlowCalls.describe(stats.slow())).isEmpty();
    }

    /**
     * A running consumer hears that another one handed messages back and takes them over at its next read, however many
     * messages other consumers hold before them in the pending list (looking for expired leases from the start of the
     * list, 100 entries a read, reached them after about 200 reads here, one a second while the queue is idle).
     */
    @Test
    void messagesHandedBackBehindTwentyThousandInFlightAreTakenOverWithinMoments() throws Exception {
        RedisServerProcess server = RedisServerExtension.process().orElseThrow();
        CamelContext node = startContext();
        ProducerTemplate producer = node.createProducerTemplate();
        scheduleNow(producer, "orders", 20_000);
        producer.sendBody("redis-delay:orders?operation=scheduleBatch", List.of("h1", "h2", "h3", "h4", "h5"));
        hold(server, "orders", 20_000);
        // a consumer reads the last five and, stopping, hands them back unrouted
        QueueShard queue = new QueueShard(ConnectedClient.borrowed(redis()), QueueKeys.of(keyPrefix, "orders"));
        List<Delivery> read = queue.group().readNew("stopping~60000", 5, null);
        assertThat(read).extracting(Delivery::messageId).hasSize(5);
        List<String> taken = new CopyOnWriteArrayList<>();
        node.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders?visibilityTimeout=60s").process(e -> taken.add(e.getMessage().getBody(String.class)));
            }
        });

        queue.group().handBack("stopping~60000", read);

        await().atMost(Duration.ofSeconds(10)).until(() -> taken.size() == 5);
        assertThat(taken).containsExactlyInAnyOrder("h1", "h2", "h3", "h4", "h5");
    }

    private void peeksKeepRedisBusyForLessThan(int inFlight, long maxMillis) throws Exception {
        RedisServerProcess server = RedisServerExtension.process().orElseThrow();
        ProducerTemplate producer = startContext().createProducerTemplate();
        scheduleNow(producer, "orders", inFlight);
        String[] held = hold(server, "orders", inFlight);
        String firstHeld = held[0];
        String lastHeld = held[1];
        producer.sendBodyAndHeader("redis-delay:orders", "ready", RedisDelayConstants.MESSAGE_ID, "ready-0");

        SlowCalls.Quickest<Map<String, String>> states = SlowCalls.quickestOf(server, maxMillis * 1000, TRIES,
                () -> Map.of(firstHeld, state(producer, firstHeld), lastHeld, state(producer, lastHeld),
                        "ready-0", state(producer, "ready-0")));

        assertThat(states.result()).containsEntry(firstHeld, "inflight").containsEntry(lastHeld, "inflight")
                .containsEntry("ready-0", "ready");
        assertThat(states.slow()).as("calls slower than %d ms: %s", maxMillis, SlowCalls.describe(states.slow())).isEmpty();
    }

    /**
     * A peek of an id its queue does not hold looks for the queue's dead letters of the id, also those held under
     * {@code <id>#<stream entry>}, which may be anywhere in the dead-letter queue: reading its ids in one call took 48
     * ms with 100,000 dead letters, and grows with their number.
     */
    @Test
    void peekOfAnIdBesideOneHundredThousandDeadLettersKeepsRedisBusyForLessThanFifteenMs() throws Exception {
        RedisServerProcess server = RedisServerExtension.process().orElseThrow();
        ProducerTemplate producer = startContext().createProducerTemplate();
        scheduleNow(producer, "orders.dead", 100_000);

        SlowCalls.Quickest<String> state = SlowCalls.quickestOf(server, 15_000, TRIES, () -> state(producer, "order-7"));

        assertThat(state.result()).as("state of an id that neither queue holds").isNull();
        assertThat(state.slow()).as("calls slower than 15 ms: %s", SlowCalls.describe(state.slow())).isEmpty();
    }

    /** Schedules count messages due now, under generated ids. */
    private static void scheduleNow(ProducerTemplate producer, String queue, int count) {
        for (int from = 0; from < count; from += 10_000) {
            List<String> bodies = new ArrayList<>();
            for (int i = from; i < Math.min(count, from + 10_000); i++) {
                bodies.add("order " + i);
            }
            producer.sendBody("redis-delay:" + queue + "?operation=scheduleBatch", bodies);
        }
    }

    /**
     * Reads count entries of the queue's ready stream as {@link #HOLDER}, which never settles them.
     *
     * @return the message ids of the first and the last entry read
     */
    private String[] hold(RedisServerProcess server, String queue, int count) {
        String ready = key(queue, "ready");
        String[] read = server.command("EVAL", "local read = redis.call('XREADGROUP', 'GROUP', 'consumers', ARGV[1], "
                                               + "'COUNT', ARGV[2], 'STREAMS', KEYS[1], '>')[1][2] "
                                               + "return {#read, read[1][2][2], read[#read][2][2]}",
                "1", ready, HOLDER, String.valueOf(count)).lines().toArray(String[]::new);
        assertThat(read[0]).isEqualTo(String.valueOf(count));
        return new String[] { read[1], read[2] };
    }

    private static String state(ProducerTemplate producer, String id) {
        Exchange peeked = producer.request("redis-delay:orders?operation=peek",
                e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, id));
        return peeked.getMessage().getHeader(RedisDelayConstants.STATE, String.class);
    }
}
