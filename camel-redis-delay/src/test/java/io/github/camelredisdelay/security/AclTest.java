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
package io.github.camelredisdelay.security;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.IntStream;

import io.github.camelredisdelay.RedisDelayConfiguration;
import io.github.camelredisdelay.RedisDelayConstants;
import io.github.camelredisdelay.embedded.RedisBinary;
import io.github.camelredisdelay.test.CamelNodes;
import io.github.camelredisdelay.test.HealthChecks;
import io.github.camelredisdelay.test.HeldFirstMessage;
import org.apache.camel.CamelContext;
import org.apache.camel.ConsumerTemplate;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.console.DevConsole;
import org.apache.camel.console.DevConsoleResolver;
import org.apache.camel.health.HealthCheck;
import org.apache.camel.health.HealthCheckHelper;
import org.apache.camel.spi.BrowsableEndpoint;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Every feature of the component run by a Redis user that holds only the rules of {@link ComponentAcl}, logged in
 * through the component's {@code address}, {@code username} and {@code password} options. After each test the server's
 * ACL log must hold nothing but Redisson's cluster probe: a refused command that the component survived (a retry, a
 * logged warning) still fails the test.
 */
class AclTest {

    private static final String USER = "camel-delay";
    private static final String PASSWORD = "acl-test-secret";
    /** Redisson replaces {@code ${name}} in a YAML file with this system property (or an environment variable). */
    private static final String PASSWORD_PROPERTY = "redisDelayAclTestPassword";
    /**
     * Consumers poll unless the test is about the blocking consumer, whose long read holds the stop of its context for
     * up to a second.
     */
    private static final String POLLING = "consumerType=polling&pollInterval=50";

    @TempDir
    static Path dir;

    private static AclRedisServer server;

    private final CamelNodes nodes = new CamelNodes();
    private final List<Message> delivered = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void startServer() {
        RedisBinary binary = TestRedisBinary.selected();
        server = AclRedisServer.start(binary, USER, PASSWORD, ComponentAcl.rulesFor(TestRedisBinary.version(binary)));
        System.out.println("[redis-test] ACL tests use redis-server " + server.version());
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @BeforeEach
    void forgetEarlierDenials() {
        server.forgetDenials();
    }

    @AfterEach
    void stopNodesAndRequireNoDenials() {
        nodes.close();
        assertThat(server.denials()).as("commands, keys or channels the server refused")
                .allMatch(denial -> denial.endsWith(ComponentAcl.REDISSON_CLUSTER_PROBE));
    }

    @Test
    void scheduledAndBatchScheduledMessagesAreDelivered() throws Exception {
        // the one blocking consumer (the default type) of these tests
        ProducerTemplate producer = nodes.start(this::loggedIn, consumer("redis-delay:orders"))
                .createProducerTemplate();

        producer.sendBody("redis-delay:orders?delay=200", "later");
        producer.sendBody("redis-delay:orders", "now");
        producer.sendBody("redis-delay:orders?operation=scheduleBatch&delay=100", List.of("batch-1", "batch-2"));

        await().atMost(Duration.ofSeconds(10))
                .until(() -> bodies().containsAll(List.of("later", "now", "batch-1", "batch-2")));
    }

    @Test
    void failedMessageIsRetriedThenDeadLettered() throws Exception {
        ProducerTemplate producer = nodes.start(this::loggedIn, new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:payments?" + POLLING + "&maxDeliveries=2&retrySchedule=100")
                        .throwException(new IllegalStateException("declined"));
            }
        }, consumer("redis-delay:payments.dead?" + POLLING)).createProducerTemplate();

        producer.sendBody("redis-delay:payments", "payment");

        await().atMost(Duration.ofSeconds(10)).until(() -> delivered.size() == 1);
        assertThat(delivered.get(0).getHeader(RedisDelayConstants.ORIGINAL_QUEUE)).isEqualTo("payments");
    }

    @Test
    void cancelRescheduleAndStatsAnswer() throws Exception {
        ProducerTemplate producer = nodes.start(this::loggedIn).createProducerTemplate();
        producer.sendBodyAndHeader("redis-delay:reminders?delay=1h", "a", RedisDelayConstants.MESSAGE_ID, "a");
        producer.sendBodyAndHeader("redis-delay:reminders?delay=1h", "b", RedisDelayConstants.MESSAGE_ID, "b");

        Object cancelled = producer.requestBodyAndHeader("redis-delay:reminders?operation=cancel", null,
                RedisDelayConstants.MESSAGE_ID, "a");
        Object rescheduled = producer.requestBodyAndHeaders("redis-delay:reminders?operation=reschedule", null,
                Map.of(RedisDelayConstants.MESSAGE_ID, "b", RedisDelayConstants.DELAY, "2h"));
        Map<String, Object> stats = producer.requestBody("redis-delay:reminders?operation=stats", null, Map.class);

        assertThat(cancelled).isEqualTo(true);
        assertThat(rescheduled).isEqualTo(true);
        assertThat(stats.get("scheduled")).isEqualTo(1L);
    }

    @Test
    void operatorToolsAnswer() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CamelContext node = nodes.start(this::loggedIn, new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs?" + POLLING + "&maxDeliveries=1").process(exchange -> {
                    String body = exchange.getMessage().getBody(String.class);
                    if (body.equals("failing")) {
                        throw new IllegalStateException("declined");
                    }
                    release.await(10, TimeUnit.SECONDS);
                });
            }
        });
        ProducerTemplate producer = node.createProducerTemplate();
        try {
            producer.sendBodyAndHeader("redis-delay:jobs", "failing", RedisDelayConstants.MESSAGE_ID, "failing");
            producer.sendBodyAndHeader("redis-delay:jobs", "held", RedisDelayConstants.MESSAGE_ID, "held");
            producer.sendBodyAndHeader("redis-delay:jobs?delay=1h", "later", RedisDelayConstants.MESSAGE_ID, "later");
            await().atMost(Duration.ofSeconds(10)).until(() -> "dead".equals(stateOf(producer, "jobs", "failing")));
            await().atMost(Duration.ofSeconds(10)).until(() -> Long.valueOf(1).equals(
                    producer.requestBody("redis-delay:jobs?operation=stats", null, Map.class).get("inFlight")));

            String laterState = stateOf(producer, "jobs", "later");
            List<Exchange> browsed = node.getEndpoint("redis-delay:jobs", BrowsableEndpoint.class).getExchanges();
            String console = (String) node.getCamelContextExtension().getContextPlugin(DevConsoleResolver.class)
                    .resolveDevConsole("redis-delay").call(DevConsole.MediaType.TEXT);
            Object redriven = producer.requestBody("redis-delay:jobs?operation=redrive&delay=1h", (Object) null);
            // the redriven message, the one scheduled for later and the one in flight
            Object purged = producer.requestBodyAndHeader("redis-delay:jobs?operation=purge", null,
                    RedisDelayConstants.CONFIRM, "jobs");

            assertThat(laterState).isEqualTo("scheduled");
            assertThat(browsed).extracting(e -> e.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID)).contains("later");
            assertThat(console).contains("later due in").contains("failing dead-lettered");
            assertThat(redriven).isEqualTo(1L);
            assertThat(purged).isEqualTo(3L);
        } finally {
            release.countDown();
        }
    }

    @Test
    void aPurgeWhoseAcknowledgementIsRefusedFailsAndRemovesNothing() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        List<String> routed = new CopyOnWriteArrayList<>();
        CamelContext node = startHoldingConsumer("redis-delay:purged", routed, release);
        ProducerTemplate producer = node.createProducerTemplate();
        producer.sendBodyAndHeader("redis-delay:purged", "held", RedisDelayConstants.MESSAGE_ID, "held");
        producer.sendBodyAndHeader("redis-delay:purged?delay=1h", "later", RedisDelayConstants.MESSAGE_ID, "later");
        await().atMost(Duration.ofSeconds(10)).until(() -> routed.contains("held"));

        Exchange purge = whileRefused("-xack", new String[] { "+xack" },
                () -> producer.request("redis-delay:purged?operation=purge",
                        exchange -> exchange.getMessage().setHeader(RedisDelayConstants.CONFIRM, "purged")));
        String heldState = stateOf(producer, "purged", "held");
        release.countDown();

        assertThat(purge.getException()).as("the purge's failure").hasStackTraceContaining("purge.lua");
        assertThat(heldState).as("the message in flight during the purge").isEqualTo("inflight");
        assertThat(server.denials()).as("what was refused").anyMatch(denial -> denial.contains("'xack'"));
        server.forgetDenials();
        await().atMost(Duration.ofSeconds(10)).until(() -> Long.valueOf(0).equals(
                producer.requestBody("redis-delay:purged?operation=stats", null, Map.class).get("inFlight")));
        assertThat(stateOf(producer, "purged", "later")).as("the message scheduled for later").isEqualTo("scheduled");
        assertThat(routed).containsExactly("held");
    }

    /**
     * Statistics and {@code peek} tell in-flight messages from ready ones by the consumer group's state, read in their
     * scripts with {@code redis.pcall} so that a queue no consumer ever started (no group) answers. A refusal of those
     * reads by the ACL must fail them, naming the command (Redis 7.0's refusal inside a script does not: "The user
     * executing the script can't run this command"), rather than count the message in flight as ready.
     */
    @Test
    void statisticsAndPeekRefusedTheConsumerGroupsStateFailNamingTheCommand() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        List<String> routed = new CopyOnWriteArrayList<>();
        CamelContext node = startHoldingConsumer("redis-delay:watched?" + POLLING, routed, release);
        ProducerTemplate producer = node.createProducerTemplate();
        Exchange stats;
        Exchange peek;
        try {
            producer.sendBodyAndHeader("redis-delay:watched", "held", RedisDelayConstants.MESSAGE_ID, "held");
            await().atMost(Duration.ofSeconds(10)).until(() -> routed.contains("held"));

            // Redis 6.2 takes no rule that removes a subcommand
            stats = whileRefused("-xinfo", new String[] { "+xinfo|groups", "+xinfo|consumers" },
                    () -> producer.request("redis-delay:watched?operation=stats", exchange -> {
                    }));
            peek = whileRefused("-xpending", new String[] { "+xpending" },
                    () -> producer.request("redis-delay:watched?operation=peek",
                            exchange -> exchange.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, "held")));
        } finally {
            release.countDown();
        }

        assertThat(stats.getException()).as("the statistics' failure, not %s", stats.getMessage().getBody())
                .hasStackTraceContaining("XINFO GROUPS: ");
        assertThat(peek.getException()).as("the peek's failure, not the state %s",
                peek.getMessage().getHeader(RedisDelayConstants.STATE))
                .hasStackTraceContaining("XPENDING camel:delay:{watched}:ready: ");
        // the refused read's failure stands for the statistics' cache time
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> Long.valueOf(0).equals(
                producer.requestBody("redis-delay:watched?operation=stats", null, Map.class).get("inFlight")));
        server.forgetDenials();
    }

    /** Sends {@code request} while the user lacks what {@code refusing} takes away; {@code restoring} gives it back. */
    private Exchange whileRefused(String refusing, String[] restoring, Supplier<Exchange> request) {
        server.changeRules(USER, refusing);
        try {
            return request.get();
        } finally {
            server.changeRules(USER, restoring);
        }
    }

    private static String stateOf(ProducerTemplate producer, String queue, String id) {
        return producer.request("redis-delay:" + queue + "?operation=peek",
                exchange -> exchange.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, id))
                .getMessage().getHeader(RedisDelayConstants.STATE, String.class);
    }

    @Test
    void consumerAndProducerHealthChecksAreUp() throws Exception {
        CamelContext node = nodes.create(this::loggedIn, new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:checks?" + POLLING).routeId("checked").log("${body}");
                from("direct:check").to("redis-delay:checks?delay=1h");
            }
        });
        HealthChecks.enableConsumersAndProducers(node);
        node.start();
        node.createProducerTemplate().sendBody("direct:check", "x");
        HealthCheck producerCheck = HealthChecks.producerCheck(node);

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(HealthChecks.readiness(node)).containsEntry("consumer:checked", HealthCheck.State.UP);
            assertThat(producerCheck.call().getState()).isEqualTo(HealthCheck.State.UP);
        });
    }

    /**
     * A consumer Redis refuses every read (here the ACL, {@code XREADGROUP}) delivers nothing while messages wait: its
     * readiness, which only wrote its probe, stayed UP. It must be DOWN naming the refusal, and UP again once the reads
     * are answered.
     */
    @Test
    void aConsumerWhoseReadsAreRefusedIsNotReadyUntilTheyAreAnswered() throws Exception {
        CamelContext node = startReadyConsumer("refused");

        server.changeRules(USER, "-xreadgroup");
        try {
            node.createProducerTemplate().sendBody("redis-delay:refused", "waiting");
            await("readiness of the consumer refused its reads").atMost(Duration.ofSeconds(10)).untilAsserted(
                    () -> assertThat(readinessOf(node, "consumer:refused")).satisfies(result -> {
                        assertThat(result.getState()).isEqualTo(HealthCheck.State.DOWN);
                        assertThat(result.getMessage()).get(InstanceOfAssertFactories.STRING).contains("refused")
                                .contains("xreadgroup");
                    }));
            assertThat(delivered).as("delivered while the reads are refused").isEmpty();
        } finally {
            server.changeRules(USER, "+xreadgroup");
        }

        await().atMost(Duration.ofSeconds(10)).until(() -> bodies().contains("waiting"));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> HealthChecks.readiness(node).get("consumer:refused") == HealthCheck.State.UP);
        server.forgetDenials();
    }

    /**
     * Reads that time out first (Redis holds writes longer than the client waits) and are then refused: the spell of
     * failed reads began with Redis out of reach, and the refusals that follow must still make the consumer not ready
     * once Redis answers again.
     */
    @Test
    void aConsumerWhoseReadsAreRefusedAfterTheyTimedOutIsNotReady() throws Exception {
        CamelContext node = startReadyConsumer("refusedLater");

        // the read under way when writes are held times out (the client's 3 s, one retry 200 ms later, so 6.2 s in); the
        // reads after it, held too, run once the pause ends, and are refused
        long pauseMs = 10_000;
        long readTimedOutMs = 7_000;
        server.pauseWrites(pauseMs);
        await("the held read timed out").pollDelay(Duration.ofMillis(readTimedOutMs))
                .atMost(Duration.ofMillis(readTimedOutMs + 1_000)).until(() -> true);
        server.changeRules(USER, "-xreadgroup");
        try {
            await("readiness of the consumer refused its reads after the pause")
                    .pollDelay(Duration.ofMillis(pauseMs - readTimedOutMs)).atMost(Duration.ofSeconds(15)).untilAsserted(
                            () -> assertThat(readinessOf(node, "consumer:refusedLater")).satisfies(result -> {
                                assertThat(result.getState()).isEqualTo(HealthCheck.State.DOWN);
                                assertThat(result.getMessage()).get(InstanceOfAssertFactories.STRING).contains("refused")
                                        .contains("xreadgroup");
                            }));
        } finally {
            server.changeRules(USER, "+xreadgroup");
        }

        await().atMost(Duration.ofSeconds(10))
                .until(() -> HealthChecks.readiness(node).get("consumer:refusedLater") == HealthCheck.State.UP);
        server.forgetDenials();
    }

    private static HealthCheck.Result readinessOf(CamelContext node, String id) {
        return HealthCheckHelper.invokeReadiness(node).stream().filter(result -> result.getCheck().getId().equals(id))
                .findFirst().orElseThrow();
    }

    @Test
    void slowExchangeKeepsItsLeaseAndIsDeliveredOnce() throws Exception {
        ProducerTemplate producer = nodes.start(this::loggedIn, new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:slow?" + POLLING + "&visibilityTimeout=300").delay(900)
                        .process(exchange -> delivered.add(exchange.getMessage().copy()));
            }
        }).createProducerTemplate();

        producer.sendBody("redis-delay:slow", "slow");

        await().atMost(Duration.ofSeconds(10)).until(() -> delivered.size() == 1);
        assertThat(delivered.get(0).getHeader(RedisDelayConstants.DELIVERY_COUNT)).isEqualTo(1);
    }

    @Test
    void consumerTemplateAndPollingConsumerReceive() throws Exception {
        CamelContext node = nodes.start(this::loggedIn, consumer("redis-delay:polled?" + POLLING));
        ProducerTemplate producer = node.createProducerTemplate();
        producer.sendBody("redis-delay:polled", "by route");
        producer.sendBody("redis-delay:taken", "by template");

        Object taken = node.createConsumerTemplate().receiveBody("redis-delay:taken", 5000);

        assertThat(taken).isEqualTo("by template");
        await().atMost(Duration.ofSeconds(10)).until(() -> bodies().contains("by route"));
    }

    @Test
    void expiredLeaseOfAStoppedConsumerIsTakenOverByTheNextOne() throws Exception {
        CamelContext first = nodes.start(this::loggedIn);
        first.createProducerTemplate().sendBody("redis-delay:leases", "leased");
        ConsumerTemplate template = first.createConsumerTemplate();
        // received but never done: the consumer stops holding the lease, as a crashed one would
        Exchange leased = template.receive("redis-delay:leases?visibilityTimeout=300", 5000);
        assertThat(leased).isNotNull();
        first.stop();

        nodes.start(this::loggedIn, consumer("redis-delay:leases?" + POLLING + "&visibilityTimeout=300"));

        await().atMost(Duration.ofSeconds(10)).until(() -> delivered.size() == 1);
        assertThat(delivered.get(0).getHeader(RedisDelayConstants.DELIVERY_COUNT)).isEqualTo(2);
    }

    /**
     * A consumer acknowledges finished messages and reads the next ones in one pipeline. When Redis refuses the
     * acknowledgement (a script) and answers the read, as while a cluster slot moves ({@code TRYAGAIN}), the messages
     * read must still reach the route: left in the consumer's pending list they would come back only after their lease,
     * counted as an expired lease, and with {@code maxDeliveries=1} go to the dead-letter queue unprocessed. The
     * consumer then reads nothing more until the acknowledgement goes through. Here the user loses {@code EVALSHA} for
     * a while, and keeps {@code XREADGROUP}; the blocking consumer, whose reads carry the acknowledgements.
     */
    @Test
    void messagesReadBesideARefusedAcknowledgementReachTheRoute() throws Exception {
        HeldFirstMessage route = new HeldFirstMessage("held", "maxDeliveries=1&visibilityTimeout=3000&maxMessagesPerPoll=5");
        ProducerTemplate producer = nodes.start(this::loggedIn, route).createProducerTemplate();
        List<String> next = IntStream.rangeClosed(1, 10).mapToObj(i -> "next-" + i).toList();

        route.sendFirstAndWaitUntilHeld(producer);
        next.forEach(body -> producer.sendBody("redis-delay:held", body));
        RedissonClient observer = observer();
        try {
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> observer.getStream("camel:delay:{held}:ready").size() == 1 + next.size());
        } finally {
            observer.shutdown();
        }

        // from here on the first message's acknowledgement is refused, the read beside it (five) answered
        server.changeRules(USER, "-evalsha");
        route.release();
        try {
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(route.routed())
                    .as("messages read beside the refused acknowledgement").containsAll(next.subList(0, 5)));
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(
                    route.routed()).as("no read while the acknowledgement is refused").hasSize(6));
        } finally {
            server.changeRules(USER, "+evalsha");
        }

        // every message is acknowledged once scripts are answered again, none after an expired lease
        route.assertEachRoutedOnceAndNoneDeadLettered(producer, next, Duration.ofSeconds(20));
        assertThat(server.denials()).as("what was refused").anyMatch(denial -> denial.contains("'evalsha'"));
        server.forgetDenials();
    }

    @Test
    void redissonYamlLogsInWithThePasswordOfAVariable() throws Exception {
        Path yaml = RedissonYaml.forAddress(server.address()).loggingInAs(USER, "${" + PASSWORD_PROPERTY + "}")
                .writeTo(dir.resolve("acl.yaml"));
        System.setProperty(PASSWORD_PROPERTY, PASSWORD);
        try {
            ProducerTemplate producer = nodes.start(options -> options.setRedissonConfig(yaml.toString()),
                    consumer("redis-delay:configured?" + POLLING)).createProducerTemplate();
            producer.sendBody("redis-delay:configured", "configured by file");

            await().atMost(Duration.ofSeconds(10)).until(() -> bodies().contains("configured by file"));
        } finally {
            System.clearProperty(PASSWORD_PROPERTY);
        }
    }

    @Test
    void queuesUnderAnotherKeyPrefixAreRefusedTheirKeysAndChannels() throws Exception {
        ProducerTemplate producer = nodes.start(options -> {
            loggedIn(options);
            options.setKeyPrefix("other:delay");
        }).createProducerTemplate();

        assertThatThrownBy(() -> producer.sendBody("redis-delay:orders", "elsewhere"))
                .hasStackTraceContaining("NOPERM");
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(server.denials())
                .anyMatch(denial -> denial.contains("key 'other:delay:{orders}:"))
                .anyMatch(denial -> denial.contains("channel 'other:delay:*'")));
        server.forgetDenials();
    }

    /** A client of the component's user, to look at the ready stream. */
    private static RedissonClient observer() {
        Config config = new Config();
        config.setCodec(StringCodec.INSTANCE);
        config.setUsername(USER).setPassword(PASSWORD);
        config.useSingleServer().setAddress(server.address());
        return Redisson.create(config);
    }

    /**
     * Starts a context with health checks whose polling route, with {@code queue}'s name as its id, consumes
     * {@code queue} into {@code delivered}, and waits until the route's consumer is ready.
     */
    private CamelContext startReadyConsumer(String queue) throws Exception {
        CamelContext node = nodes.create(this::loggedIn, new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:" + queue + "?" + POLLING).routeId(queue)
                        .process(exchange -> delivered.add(exchange.getMessage().copy()));
            }
        });
        HealthChecks.enableConsumersAndProducers(node);
        node.start();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> HealthChecks.readiness(node).get("consumer:" + queue) == HealthCheck.State.UP);
        return node;
    }

    /** Starts a context whose route records each body it gets and holds the exchange until {@code release}. */
    private CamelContext startHoldingConsumer(String uri, List<String> routed, CountDownLatch release) throws Exception {
        return nodes.start(this::loggedIn, new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).process(exchange -> {
                    routed.add(exchange.getMessage().getBody(String.class));
                    release.await(10, TimeUnit.SECONDS);
                });
            }
        });
    }

    private void loggedIn(RedisDelayConfiguration options) {
        options.setAddress(server.address());
        options.setUsername(USER);
        options.setPassword(PASSWORD);
    }

    private List<Object> bodies() {
        return delivered.stream().map(Message::getBody).toList();
    }

    private RouteBuilder consumer(String uri) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).process(exchange -> delivered.add(exchange.getMessage().copy()));
            }
        };
    }
}
