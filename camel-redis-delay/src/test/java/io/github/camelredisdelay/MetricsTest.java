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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;

import io.github.camelredisdelay.embedded.RedisBinary;
import io.github.camelredisdelay.embedded.RedisServerOptions;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.internal.QueueKeys;
import io.github.camelredisdelay.internal.QueueStatistics;
import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.CommandStats;
import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.ProcessSignals;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.github.camelredisdelay.test.RedisServerExtension;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.redisson.api.stream.StreamReadGroupArgs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@CamelSide
class MetricsTest extends RedisDelayTestSupport {

    private final Set<String> failing = ConcurrentHashMap.newKeySet();
    private final List<String> delivered = new CopyOnWriteArrayList<>();

    /** A node with {@code registry} in its Camel registry, consuming {@code uri}; bodies in {@link #failing} fail. */
    private CamelContext node(MeterRegistry registry, String uri) throws Exception {
        CamelContext context = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).process(e -> {
                    String body = e.getMessage().getBody(String.class);
                    if (failing.contains(body)) {
                        throw new IllegalStateException("failing " + body);
                    }
                    delivered.add(body);
                });
            }
        });
        context.getRegistry().bind("metricsRegistry", registry);
        context.start();
        return context;
    }

    /**
     * A node, not started, with {@code registry}, whose route {@code direct:schedule} schedules to jobs an hour ahead.
     */
    private CamelContext schedulingContext(MeterRegistry registry) throws Exception {
        CamelContext context = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:schedule").to("redis-delay:jobs?delay=1h");
            }
        });
        context.getRegistry().bind("metricsRegistry", registry);
        return context;
    }

    /**
     * A node, not started, with {@code registry}, whose routes {@code first} and {@code second} schedule to jobs an
     * hour ahead, the second over a Redis connection of its own.
     */
    private CamelContext schedulingOverTwoConnections(MeterRegistry registry) throws Exception {
        CamelContext context = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:first").routeId("first").to("redis-delay:jobs?delay=1h");
                from("direct:second").routeId("second")
                        .to("redis-delay:jobs?delay=1h&address=" + RedisServerExtension.redisUrl());
            }
        });
        context.getRegistry().bind("metricsRegistry", registry);
        return context;
    }

    private static double count(MeterRegistry registry, String name) {
        return registry.get("camel.redis.delay." + name).tag("queue", "jobs").counter().count();
    }

    private static double messages(MeterRegistry registry, String state) {
        return registry.get("camel.redis.delay.messages").tag("queue", "jobs").tag("state", state).gauge().value();
    }

    @Test
    void everyMeterFollowsScheduleDeliverFailRetryDeadLetterRedriveDeliver() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        CamelContext node = node(registry, "redis-delay:jobs?retrySchedule=50&maxDeliveries=2");
        ProducerTemplate producer = node.createProducerTemplate();
        failing.add("job");

        producer.sendBodyAndHeader("redis-delay:jobs?delay=100", "job", RedisDelayConstants.MESSAGE_ID, "job");
        producer.sendBodyAndHeader("redis-delay:jobs?delay=1h", "never", RedisDelayConstants.MESSAGE_ID, "never");
        producer.sendBodyAndHeader("redis-delay:jobs?operation=cancel", null, RedisDelayConstants.MESSAGE_ID, "never");
        await().atMost(Duration.ofSeconds(10)).until(() -> count(registry, "dead.lettered") == 1);
        await().atMost(Duration.ofSeconds(5)).until(() -> messages(registry, "dead") == 1);
        assertThat(messages(registry, "scheduled")).isZero();
        failing.clear();
        producer.sendBody("redis-delay:jobs?operation=redrive", null);
        await().atMost(Duration.ofSeconds(5)).until(() -> delivered.size() == 1);
        await().atMost(Duration.ofSeconds(5)).until(() -> messages(registry, "dead") == 0);

        assertThat(count(registry, "scheduled")).isEqualTo(2);
        assertThat(count(registry, "cancelled")).isEqualTo(1);
        assertThat(count(registry, "delivered")).isEqualTo(3);
        assertThat(count(registry, "retried")).isEqualTo(1);
        assertThat(count(registry, "dead.lettered")).isEqualTo(1);
        assertThat(count(registry, "reclaimed")).isZero();
        assertThat(registry.get("camel.redis.delay.lateness").tag("queue", "jobs").timer().count()).isEqualTo(3);
        assertThat(messages(registry, "scheduled")).isZero();
        assertThat(messages(registry, "ready")).isZero();
        assertThat(messages(registry, "inflight")).isZero();
        assertThat(registry.get("camel.redis.delay.oldest.overdue").tag("queue", "jobs").gauge().value()).isZero();
    }

    @Test
    void leasesTakenOverFromADeadConsumerAreCountedAsReclaimed() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        startContext().createProducerTemplate().sendBody("redis-delay:jobs", "job");
        var ready = redis().getStream(key("jobs", "ready"));
        await().atMost(Duration.ofSeconds(5)).until(() -> ready.size() == 1);
        // a consumer that reads the message and dies before acknowledging it
        assertThat(ready.readGroup(QueueKeys.GROUP, "crashed-consumer", StreamReadGroupArgs.neverDelivered().count(1)))
                .hasSize(1);

        node(registry, "redis-delay:jobs?visibilityTimeout=500");

        await().atMost(Duration.ofSeconds(10)).until(() -> delivered.size() == 1);
        assertThat(count(registry, "reclaimed")).isEqualTo(1);
        assertThat(count(registry, "delivered")).isEqualTo(1);
    }

    @Test
    void prometheusScrapeShowsEveryMeterOfTheQueue() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        CamelContext node = node(registry, "redis-delay:jobs");
        ProducerTemplate producer = node.createProducerTemplate();
        producer.sendBody("redis-delay:jobs?delay=50", "job");
        producer.sendBody("redis-delay:jobs?delay=1h", "later");
        await().atMost(Duration.ofSeconds(5)).until(() -> delivered.size() == 1);

        String scrape = registry.scrape();
        System.out.println("[prometheus scrape]\n" + scrape.lines().filter(line -> line.contains("camel_redis_delay"))
                .filter(line -> !line.contains("_bucket{") || line.contains("le=\"+Inf\"") || line.contains("le=\"0.1\""))
                .reduce((a, b) -> a + "\n" + b).orElse(""));

        String queue = "camelContext=\"" + node.getName() + "\",keyPrefix=\"" + keyPrefix + "\",queue=\"jobs\"";
        assertThat(scrape).contains("camel_redis_delay_messages{" + queue + ",state=\"scheduled\"} 1.0")
                .contains("camel_redis_delay_messages{" + queue + ",state=\"dead\"} 0.0")
                .contains("camel_redis_delay_oldest_overdue_seconds{" + queue + "}")
                .contains("camel_redis_delay_scheduled_total{" + queue + "} 2.0")
                .contains("camel_redis_delay_delivered_total{" + queue + "} 1.0")
                .contains("camel_redis_delay_dead_lettered_total{" + queue + "} 0.0")
                .contains("camel_redis_delay_lateness_seconds_count{" + queue + "} 1")
                .contains("camel_redis_delay_lateness_seconds_bucket{" + queue + ",le=\"+Inf\"} 1");
    }

    @Test
    void queuesOfOneNameUnderTwoKeyPrefixesHaveMetersOfTheirOwn() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        String first = keyPrefix + "-a";
        String second = keyPrefix + "-b";
        CamelContext context = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:first").to("redis-delay:jobs?delay=1h&keyPrefix=" + first);
                from("direct:second").to("redis-delay:jobs?delay=1h&keyPrefix=" + second);
            }
        });
        context.getRegistry().bind("metricsRegistry", registry);
        context.start();
        ProducerTemplate producer = context.createProducerTemplate();
        producer.sendBody("direct:first", "one");
        producer.sendBody("direct:second", "two");
        producer.sendBody("direct:second", "three");

        assertThat(registry.get("camel.redis.delay.scheduled").tag("keyPrefix", first).counter().count()).isEqualTo(1);
        assertThat(registry.get("camel.redis.delay.scheduled").tag("keyPrefix", second).counter().count()).isEqualTo(2);
        assertThat(registry.get("camel.redis.delay.messages").tag("keyPrefix", first).tag("state", "scheduled").gauge()
                .value()).isEqualTo(1);
        assertThat(registry.get("camel.redis.delay.messages").tag("keyPrefix", second).tag("state", "scheduled").gauge()
                .value()).isEqualTo(2);
    }

    @Test
    void aContextThatStopsLeavesTheMetersOfAnotherContextOnTheSameQueue() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        CamelContext staying = schedulingContext(registry);
        CamelContext leaving = schedulingContext(registry);
        for (CamelContext context : List.of(staying, leaving)) {
            context.start();
            context.createProducerTemplate().sendBody("direct:schedule", "from " + context.getName());
        }

        leaving.stop();
        staying.createProducerTemplate().sendBody("direct:schedule", "after the other stopped");

        assertThat(registry.get("camel.redis.delay.scheduled").tag("camelContext", staying.getName()).counter().count())
                .isEqualTo(2);
        assertThat(registry.find("camel.redis.delay.scheduled").tag("camelContext", leaving.getName()).counter())
                .as("the stopped context's meters are removed").isNull();
        assertThat(registry.get("camel.redis.delay.messages").tag("camelContext", staying.getName())
                .tag("state", "scheduled").gauge().value()).isEqualTo(3);
    }

    @Test
    void aMeterFilterThatDropsTheContextTagLeavesTheMetersWithTheContextThatBoundThemFirst() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        registry.config().meterFilter(MeterFilter.ignoreTags("camelContext"));
        CamelContext first = schedulingContext(registry);
        CamelContext second = schedulingContext(registry);
        first.start();
        try (LogLines log = LogLines.of(MicrometerQueueMeters.class)) {
            second.start();

            assertThat(log.lines()).singleElement().asString().startsWith("WARN ").contains(second.getName());
        }
        second.createProducerTemplate().sendBody("direct:schedule", "not measured");
        second.stop();
        first.createProducerTemplate().sendBody("direct:schedule", "measured");

        assertThat(registry.get("camel.redis.delay.scheduled").tag("queue", "jobs").counter().count()).isEqualTo(1);
        assertThat(registry.get("camel.redis.delay.messages").tag("queue", "jobs").tag("state", "scheduled").gauge()
                .value()).isEqualTo(2);
    }

    @Test
    void aQueueReachedOverASecondConnectionWarnsThatItsMetersAreTheFirsts() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        CamelContext context = schedulingOverTwoConnections(registry);
        try (LogLines log = LogLines.of(MicrometerQueueMeters.class)) {
            context.start();

            assertThat(log.lines()).singleElement().asString().startsWith("WARN ").contains("'jobs'", keyPrefix,
                    context.getName());
        }
        ProducerTemplate producer = context.createProducerTemplate();
        producer.sendBody("direct:first", "one");
        producer.sendBody("direct:second", "two");
        context.getRouteController().stopRoute("second");
        context.removeRoute("second");
        producer.sendBody("direct:first", "three");

        assertThat(count(registry, "scheduled")).as("the first connection's schedules").isEqualTo(2);
        assertThat(messages(registry, "scheduled")).isEqualTo(3);
    }

    @Test
    void theSecondBindingOfAQueuesMetersTakesThemOverWhenTheFirstStops() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        CamelContext context = schedulingOverTwoConnections(registry);
        context.start();
        ProducerTemplate producer = context.createProducerTemplate();
        producer.sendBody("direct:first", "one");
        producer.sendBody("direct:second", "two");

        context.getRouteController().stopRoute("first");
        context.removeRoute("first");
        producer.sendBody("direct:second", "three");
        producer.sendBody("direct:second", "four");

        assertThat(count(registry, "scheduled")).as("the second connection's schedules since it took the meters over")
                .isEqualTo(2);
        assertThat(messages(registry, "scheduled")).isEqualTo(4);
    }

    @Test
    void whileRedisDoesNotAnswerAScrapeWaitsForOneFailedRefreshPerQueueNotOnePerGauge() throws Exception {
        RedisBinary binary
                = RedisBinary.select(System.getProperty(RedisServerExtension.BINARY_PROPERTY, RedisBinary.PATH_CHOICE));
        try (RedisServerProcess server = RedisServerProcess.start(binary, RedisServerOptions.defaults())) {
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            CamelContext node = createContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from("direct:schedule").to("redis-delay:jobs?delay=1h&address=" + server.uri());
                }
            });
            node.getRegistry().bind("metricsRegistry", registry);
            node.start();
            node.createProducerTemplate().sendBody("direct:schedule", "job");
            List<Gauge> gauges = registry.find("camel.redis.delay.messages").gauges().stream().toList();
            assertThat(gauges).hasSize(4);
            assertThat(registry.get("camel.redis.delay.messages").tag("state", "scheduled").gauge().value()).isOne();
            Gauge overdue = registry.get("camel.redis.delay.oldest.overdue").gauge();

            ProcessSignals.pause(server);
            try {
                // the last snapshot grows stale; the first gauge read then waits out the client's time-outs
                await().pollDelay(Duration.ofMillis(QueueStatistics.MAX_AGE_MS + 100)).until(() -> true);
                assertThat(overdue.value()).isNaN();

                long start = System.nanoTime();
                assertThat(gauges).allSatisfy(gauge -> assertThat(gauge.value()).isNaN());
                assertThat(Duration.ofNanos(System.nanoTime() - start)).as("the other gauges of the same scrape")
                        .isLessThan(Duration.ofSeconds(1));
            } finally {
                ProcessSignals.resume(server);
            }
        }
    }

    /**
     * A Prometheus scrape reads the gauges by name, so a queue's gauges are read far apart: each must not wait out the
     * client's time-outs (about 6 s) while Redis stalls, or a scrape of a few queues outlasts Prometheus' scrape
     * timeout (10 s by default), the target goes down and the unreadable alert, which looks for NaN, never fires.
     */
    @Test
    void whileRedisStallsAScrapeOfSeveralQueuesReadsNaNWithinAFewSecondsAndNumbersOnceItAnswers() throws Exception {
        RedisBinary binary
                = RedisBinary.select(System.getProperty(RedisServerExtension.BINARY_PROPERTY, RedisBinary.PATH_CHOICE));
        List<String> queues = List.of("a", "b", "c", "d", "e");
        try (RedisServerProcess server = RedisServerProcess.start(binary, RedisServerOptions.defaults())) {
            PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            CamelContext node = createContext(new RouteBuilder() {
                @Override
                public void configure() {
                    queues.forEach(queue -> from("direct:" + queue)
                            .to("redis-delay:" + queue + "?delay=1h&address=" + server.uri()));
                }
            });
            node.getRegistry().bind("metricsRegistry", registry);
            node.start();
            queues.forEach(queue -> node.createProducerTemplate().sendBody("direct:" + queue, "job"));
            assertThat(registry.scrape()).contains("camel_redis_delay_messages{");

            ProcessSignals.pause(server);
            try {
                // the last snapshots grow stale
                await().pollDelay(Duration.ofMillis(QueueStatistics.MAX_AGE_MS + 100)).until(() -> true);
                long start = System.nanoTime();
                String scrape = registry.scrape();

                assertThat(Duration.ofNanos(System.nanoTime() - start)).as("one scrape of %d queues", queues.size())
                        .isLessThan(Duration.ofSeconds(4));
                assertThat(scrape.lines().filter(line -> line.startsWith("camel_redis_delay_oldest_overdue_seconds{")))
                        .hasSize(queues.size()).allSatisfy(line -> assertThat(line).endsWith(" NaN"));
            } finally {
                ProcessSignals.resume(server);
            }
            await("numbers again").atMost(Duration.ofSeconds(30)).untilAsserted(
                    () -> assertThat(registry.scrape().lines()
                            .filter(line -> line.startsWith("camel_redis_delay_messages{")
                                    && line.contains("state=\"scheduled\""))
                            .toList()).hasSize(queues.size()).allSatisfy(line -> assertThat(line).endsWith(" 1.0")));
        }
    }

    @Test
    void readingEveryGaugeOfTwentyQueuesCostsOneRefreshPerQueue() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        List<String> queues = IntStream.range(0, 20).mapToObj(i -> "q" + i).toList();
        CamelContext context = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                queues.forEach(queue -> from("direct:" + queue).to("redis-delay:" + queue + "?delay=1h&transferInterval=60s"));
            }
        });
        context.getRegistry().bind("metricsRegistry", registry);
        context.start();
        queues.forEach(queue -> context.createProducerTemplate().sendBody("direct:" + queue, queue));
        await().atMost(Duration.ofSeconds(5))
                .until(() -> registry.find("camel.redis.delay.messages").gauges().size() == 20 * 4);

        Map<String, Long> before = CommandStats.calls(redis());
        for (int read = 0; read < 10; read++) {
            registry.getMeters().forEach(meter -> meter.measure().forEach(measurement -> measurement.getValue()));
        }
        Map<String, Long> after = CommandStats.calls(redis());

        // READ_ONLY scripts run as EVALSHA_RO on Redis 7; commands a script runs are counted too (stats.lua's HLEN)
        long scripts = List.of("eval", "evalsha", "eval_ro", "evalsha_ro").stream()
                .mapToLong(command -> after.getOrDefault(command, 0L) - before.getOrDefault(command, 0L)).sum();
        long hlens = after.getOrDefault("hlen", 0L) - before.getOrDefault("hlen", 0L);
        System.out.printf("[commandstats] 20 queues, all %d meters read 10 times: %d script calls, %d HLEN (%s)%n",
                registry.getMeters().size(), scripts, hlens,
                after.keySet().stream().filter(c -> c.startsWith("eval")).toList());
        assertThat(scripts).as("stats.lua calls: one per queue").isEqualTo(20);
        assertThat(hlens).as("HLEN: one in each stats.lua call, one per dead-letter queue").isEqualTo(40);
        assertThat(registry.get("camel.redis.delay.messages").tag("queue", "q7").tag("state", "scheduled").gauge().value())
                .isEqualTo(1);
    }
}
