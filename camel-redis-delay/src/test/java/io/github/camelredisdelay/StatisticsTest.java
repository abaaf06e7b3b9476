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

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import javax.management.MBeanServer;
import javax.management.ObjectName;

import io.github.camelredisdelay.embedded.RedisBinary;
import io.github.camelredisdelay.embedded.RedisServerOptions;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.internal.QueueStatistics;
import io.github.camelredisdelay.test.ProcessSignals;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.console.DevConsole;
import org.apache.camel.console.DevConsoleResolver;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

class StatisticsTest extends RedisDelayTestSupport {

    @Test
    void statsAreExactAfterAKnownSequenceOfOperations() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch twoInFlight = new CountDownLatch(2);
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders?concurrentConsumers=2&maxMessagesPerPoll=1").process(e -> {
                    twoInFlight.countDown();
                    release.await();
                });
            }
        });
        ProducerTemplate producer = node.createProducerTemplate();
        producer.sendBody("redis-delay:orders?delay=1h", "scheduled-1");
        producer.sendBody("redis-delay:orders?delay=1h", "scheduled-2");
        producer.sendBody("redis-delay:orders?delay=1h", "scheduled-3");
        producer.sendBody("redis-delay:orders", "in-flight-1");
        producer.sendBody("redis-delay:orders", "in-flight-2");
        await().atMost(Duration.ofSeconds(5)).until(() -> twoInFlight.getCount() == 0);
        producer.sendBody("redis-delay:orders", "ready-1");
        producer.sendBody("redis-delay:orders", "ready-2");
        producer.sendBodyAndHeader("redis-delay:orders.dead", "dead", RedisDelayConstants.DELAY, "1h");

        @SuppressWarnings("unchecked")
        Map<String, Object> stats = producer.requestBody("redis-delay:orders?operation=stats", null, Map.class);
        release.countDown();

        assertThat(stats).containsEntry("queue", "orders").containsEntry("scheduled", 3L).containsEntry("ready", 2L)
                .containsEntry("inFlight", 2L).containsEntry("deadLetterQueue", "orders.dead")
                .containsEntry("deadLettered", 1L);
        assertThat((Long) stats.get("oldestOverdueMs")).isBetween(0L, 5000L);
        assertThat((Long) stats.get("clockOffsetMs")).isBetween(-1000L, 1000L);
    }

    @Test
    void aMessageDueAtATimeLongPastIsOverdueSinceItWasScheduledNotSinceThatTime() throws Exception {
        // no consumer: the message waits in the ready stream
        ProducerTemplate producer = startContext().createProducerTemplate();

        Exchange scheduled = producer.request("redis-delay:orders",
                e -> e.getMessage().setHeader(RedisDelayConstants.DUE_AT, Instant.EPOCH));
        @SuppressWarnings("unchecked")
        Map<String, Object> stats = producer.requestBody("redis-delay:orders?operation=stats", null, Map.class);

        assertThat(stats).containsEntry("ready", 1L);
        assertThat((Long) stats.get("oldestOverdueMs")).isBetween(0L, 5000L);
        assertThat(scheduled.getMessage().getHeader(RedisDelayConstants.SCHEDULED_FOR, Long.class))
                .as("due now, not in 1970").isGreaterThan(Instant.parse("2020-01-01T00:00:00Z").toEpochMilli());
    }

    @Test
    void latenessOfDeliveriesIsMeasured() throws Exception {
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders").process(e -> e.getMessage().setBody("done"));
            }
        });
        ProducerTemplate producer = node.createProducerTemplate();
        for (int i = 0; i < 20; i++) {
            producer.sendBody("redis-delay:orders?delay=" + (100 + i * 10), "m" + i);
        }
        RedisDelayEndpoint endpoint = node.getEndpoint("redis-delay:orders", RedisDelayEndpoint.class);
        await().atMost(Duration.ofSeconds(10)).until(() -> endpoint.statistics().lateness().samples() == 20);

        assertThat(endpoint.statistics().lateness().max()).isBetween(0L, 1000L);
        assertThat(endpoint.statistics().lateness().p50()).isLessThanOrEqualTo(endpoint.statistics().lateness().p99());
    }

    @Test
    void endpointPublishesStatisticsAsJmxAttributes() throws Exception {
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:order").to("redis-delay:orders?delay=1h");
            }
        });
        node.createProducerTemplate().sendBody("direct:order", "x");
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();

        var names = server
                .queryNames(new ObjectName("org.apache.camel:context=" + node.getManagementName() + ",type=endpoints,*"),
                        null)
                .stream().filter(n -> n.getKeyProperty("name").contains("redis-delay://orders")).toList();

        assertThat(names).as("MBeans of the endpoint").hasSize(1);
        ObjectName name = names.get(0);
        assertThat(server.getAttribute(name, "ScheduledCount")).isEqualTo(1L);
        assertThat(server.getAttribute(name, "ReadyCount")).isEqualTo(0L);
        assertThat(server.getAttribute(name, "ClockOffsetMillis")).isInstanceOf(Long.class);
    }

    @Test
    void devConsoleListsEveryQueueOfTheContext() throws Exception {
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders").process(e -> e.getMessage().setBody("done"));
                from("direct:remind").to("redis-delay:reminders?delay=1h");
            }
        });
        node.createProducerTemplate().sendBody("direct:remind", "x");

        DevConsole console
                = node.getCamelContextExtension().getContextPlugin(DevConsoleResolver.class).resolveDevConsole("redis-delay");
        String text = (String) console.call(DevConsole.MediaType.TEXT);

        assertThat(text).contains("Queue: orders").contains("Queue: reminders").contains("scheduled: 1");
    }

    @Test
    void devConsoleTellsQueuesOfOneNameUnderTwoKeyPrefixesApart() throws Exception {
        String otherPrefix = keyPrefix + "-other";
        DevConsole console = devConsoleOfOneAndTwoMessagesScheduledOn("redis-delay:orders?delay=1h",
                "redis-delay:orders?delay=1h&keyPrefix=" + otherPrefix);

        List<Map<String, Object>> queues = queuesIn(console);
        String text = (String) console.call(DevConsole.MediaType.TEXT);

        assertThat(queues).extracting(queue -> queue.get("keyPrefix"), queue -> queue.get("scheduled"))
                .containsExactlyInAnyOrder(tuple(keyPrefix, 1L), tuple(otherPrefix, 2L));
        Object redis = queues.get(0).get("redis");
        assertThat(redis).as("where the queue lives").isNotNull().isEqualTo(queues.get(1).get("redis"));
        assertThat(text).contains("Queue: orders, key prefix " + keyPrefix + ", Redis " + redis + "\n")
                .contains("Queue: orders, key prefix " + otherPrefix + ", Redis " + redis + "\n");
    }

    @Test
    void devConsoleTellsQueuesOfOneNameInTwoDatabasesApart() throws Exception {
        String address = RedisServerExtension.redisUrl();
        DevConsole console = devConsoleOfOneAndTwoMessagesScheduledOn(
                "redis-delay:orders?delay=1h&database=1&address=" + address,
                "redis-delay:orders?delay=1h&database=2&address=" + address);

        assertThat(queuesIn(console)).extracting(queue -> queue.get("redis"), queue -> queue.get("scheduled"))
                .containsExactlyInAnyOrder(tuple("address " + address + " database 1", 1L),
                        tuple("address " + address + " database 2", 2L));
    }

    /**
     * An operator opens the console while Redis stalls: it answers, naming each queue's error, without a wait per
     * queue.
     */
    @Test
    void whileRedisStallsTheDevConsoleAnswersWithinAFewSecondsNamingEachQueuesError() throws Exception {
        RedisBinary binary
                = RedisBinary.select(System.getProperty(RedisServerExtension.BINARY_PROPERTY, RedisBinary.PATH_CHOICE));
        List<String> queues = List.of("a", "b", "c", "d", "e");
        try (RedisServerProcess server = RedisServerProcess.start(binary, RedisServerOptions.defaults())) {
            CamelContext node = startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    queues.forEach(queue -> from("direct:" + queue)
                            .to("redis-delay:" + queue + "?delay=1h&address=" + server.uri()));
                }
            });
            queues.forEach(queue -> node.createProducerTemplate().sendBody("direct:" + queue, "job"));
            DevConsole console
                    = node.getCamelContextExtension().getContextPlugin(DevConsoleResolver.class)
                            .resolveDevConsole("redis-delay");
            assertThat(queuesIn(console)).hasSize(queues.size())
                    .allSatisfy(queue -> assertThat(queue).containsKey("scheduled"));

            ProcessSignals.pause(server);
            try {
                // the last snapshots grow stale
                await().pollDelay(Duration.ofMillis(QueueStatistics.MAX_AGE_MS + 100)).until(() -> true);
                long start = System.nanoTime();
                List<Map<String, Object>> shown = queuesIn(console);

                assertThat(Duration.ofNanos(System.nanoTime() - start)).as("the console of %d queues", queues.size())
                        .isLessThan(Duration.ofSeconds(4));
                assertThat(shown).hasSize(queues.size()).allSatisfy(queue -> assertThat(queue).containsKey("error"));
            } finally {
                ProcessSignals.resume(server);
            }
        }
    }

    /** The dev console of a context that scheduled one message through {@code first} and two through {@code second}. */
    private DevConsole devConsoleOfOneAndTwoMessagesScheduledOn(String first, String second) throws Exception {
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:first").to(first);
                from("direct:second").to(second);
            }
        });
        ProducerTemplate producer = node.createProducerTemplate();
        producer.sendBody("direct:first", "x");
        producer.sendBody("direct:second", "y");
        producer.sendBody("direct:second", "z");
        return node.getCamelContextExtension().getContextPlugin(DevConsoleResolver.class).resolveDevConsole("redis-delay");
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> queuesIn(DevConsole console) {
        return (List<Map<String, Object>>) ((Map<String, Object>) console.call(DevConsole.MediaType.JSON)).get("queues");
    }

    @Test
    void statsOperationReportsTheLatenessOfDeliveriesOnAnotherEndpointOfTheQueue() throws Exception {
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders").process(e -> e.getMessage().setBody("done"));
            }
        });
        ProducerTemplate producer = node.createProducerTemplate();
        for (int i = 0; i < 5; i++) {
            producer.sendBody("redis-delay:orders?delay=50", "m" + i);
        }
        RedisDelayEndpoint consumed = node.getEndpoint("redis-delay:orders", RedisDelayEndpoint.class);
        await().atMost(Duration.ofSeconds(10)).until(() -> consumed.statistics().lateness().samples() == 5);

        @SuppressWarnings("unchecked")
        Map<String, Object> stats = producer.requestBody("redis-delay:orders?operation=stats", null, Map.class);

        assertThat(stats).containsEntry("latenessSamples", 5);
    }

    @Test
    void everyEndpointOfAQueueReadsOneSharedSnapshot() throws Exception {
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:order").to("redis-delay:orders?delay=1h");
                from("direct:stats").to("redis-delay:orders?operation=stats");
            }
        });
        node.createProducerTemplate().sendBody("direct:order", "x");
        RedisDelayEndpoint scheduling = node.getEndpoint("redis-delay:orders?delay=1h", RedisDelayEndpoint.class);
        RedisDelayEndpoint stats = node.getEndpoint("redis-delay:orders?operation=stats", RedisDelayEndpoint.class);

        var first = scheduling.statistics().snapshot();
        for (int i = 0; i < 50; i++) {
            stats.getScheduledCount();
            scheduling.getDeadLetteredCount();
        }

        assertThat(stats.statistics()).isSameAs(scheduling.statistics());
        assertThat(stats.statistics().snapshot()).as("read again within the refresh interval").isSameAs(first);
        assertThat(first.counts().scheduled()).isEqualTo(1L);
    }

    @Test
    void snapshotOlderThanTheRefreshIntervalIsReadAgain() throws Exception {
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:order").to("redis-delay:orders?delay=1h");
            }
        });
        RedisDelayEndpoint endpoint = node.getEndpoint("redis-delay:orders?delay=1h", RedisDelayEndpoint.class);
        assertThat(endpoint.getScheduledCount()).isZero();

        node.createProducerTemplate().sendBody("direct:order", "x");

        assertThat(endpoint.getScheduledCount()).as("within the refresh interval").isZero();
        await().atMost(Duration.ofSeconds(5)).until(() -> endpoint.getScheduledCount() == 1L);
    }

    /**
     * JMX shows an endpoint before it starts and after it stops: reading its statistics then fails naming why, not with
     * a NullPointerException or the released client's error.
     */
    @Test
    void theStatisticsOfAnEndpointThatDoesNotRunAreRefusedNamingWhy() throws Exception {
        CamelContext node = createContext();
        RedisDelayEndpoint endpoint = node.getEndpoint("redis-delay:orders", RedisDelayEndpoint.class);
        assertThatThrownBy(endpoint::getScheduledCount).isInstanceOf(IllegalStateException.class)
                .hasMessage("Endpoint of queue orders is not started: its statistics are read while it runs");

        node.start();
        assertThat(endpoint.getScheduledCount()).isZero();
        endpoint.stop();

        assertThatThrownBy(endpoint::getReadyCount).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is not started");
    }
}
