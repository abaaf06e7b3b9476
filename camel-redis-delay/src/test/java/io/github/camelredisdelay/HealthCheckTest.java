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

import io.github.camelredisdelay.internal.TransferTask;
import io.github.camelredisdelay.test.DueSet;
import io.github.camelredisdelay.test.HealthChecks;
import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.NeedsRedisProcess;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.health.HealthCheck;
import org.apache.camel.health.HealthCheckHelper;
import org.junit.jupiter.api.Test;

import static io.github.camelredisdelay.test.HealthChecks.readiness;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@NeedsRedisProcess
class HealthCheckTest extends RedisDelayTestSupport {

    @Test
    void readinessIsDownWhileRedisAnswersButRefusesTheQueuesWrites() throws Exception {
        CamelContext node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:order").to("redis-delay:orders?delay=1h");
            }
        });
        HealthChecks.enableConsumersAndProducers(node);
        node.start();
        node.createProducerTemplate().sendBody("direct:order", "x");
        HealthCheck producerCheck = HealthChecks.producerCheck(node);
        assertThat(producerCheck.call().getState()).isEqualTo(HealthCheck.State.UP);

        // out of memory under noeviction: reads and TIME are answered, every write is refused
        var server = redis().getRedisNodes(org.redisson.api.redisnode.RedisNodes.SINGLE).getInstance();
        server.setConfig("maxmemory", "1");
        try {
            HealthCheck.Result refused = producerCheck.call();
            assertThat(refused.getState()).isEqualTo(HealthCheck.State.DOWN);
            assertThat(refused.getMessage()).hasValueSatisfying(m -> assertThat(m).contains("maxmemory"));
        } finally {
            server.setConfig("maxmemory", "0");
        }
        assertThat(producerCheck.call().getState()).isEqualTo(HealthCheck.State.UP);
    }

    @Test
    void readinessIsDownNamingTheKeyWhileAQueueKeyHoldsAValueOfAnotherType() throws Exception {
        CamelContext node = startWithBothChecksUp();
        HealthCheck producerCheck = HealthChecks.producerCheck(node);

        // a script or an operator writes a string where the queue keeps its records
        String records = key("orders", "msg");
        redis().getKeys().delete(records);
        redis().getBucket(records).set("not a hash");
        assertThat(node.createProducerTemplate().send("direct:order", e -> e.getMessage().setBody("y")).getException())
                .as("a schedule while the key holds a string").hasMessageContaining("WRONGTYPE");

        HealthCheck.Result refused = producerCheck.call();
        assertThat(refused.getState()).as("producer readiness").isEqualTo(HealthCheck.State.DOWN);
        assertThat(refused.getMessage()).hasValueSatisfying(m -> assertThat(m).contains("WRONGTYPE", records));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> readiness(node).get("consumer:expire") == HealthCheck.State.DOWN);

        redis().getKeys().delete(records);
        await().atMost(Duration.ofSeconds(10)).until(() -> readiness(node).get("consumer:expire") == HealthCheck.State.UP
                && producerCheck.call().getState() == HealthCheck.State.UP);
    }

    /**
     * A string under the name of the due set's first bucket fails every transfer (naming the bucket), so the messages
     * due there and after it are never delivered: readiness must say so, naming the key, until the value is removed.
     */
    @Test
    void readinessIsDownNamingTheKeyWhileTheFirstBucketOfTheDueSetHoldsAValueOfAnotherType() throws Exception {
        CamelContext node = startWithBothChecksUp();
        HealthCheck producerCheck = HealthChecks.producerCheck(node);
        try (LogLines transfer = LogLines.of(TransferTask.class)) {
            node.createProducerTemplate().sendBodyAndHeader("redis-delay:orders", "soon", RedisDelayConstants.DELAY, 3000);
            DueSet dueSet = dueSet("orders");
            String bucket = dueSet.keyOf(dueSet.buckets().get(0));
            redis().getBucket(bucket).set("not a sorted set");
            await("the transfer refused").atMost(Duration.ofSeconds(15))
                    .until(() -> transfer.lines().stream().anyMatch(line -> line.contains("WRONGTYPE")));

            await("consumer readiness DOWN").atMost(Duration.ofSeconds(10))
                    .until(() -> readiness(node).get("consumer:expire") == HealthCheck.State.DOWN);
            HealthCheck.Result refused = producerCheck.call();
            assertThat(refused.getState()).as("producer readiness").isEqualTo(HealthCheck.State.DOWN);
            assertThat(refused.getMessage()).hasValueSatisfying(m -> assertThat(m).contains("WRONGTYPE", bucket));

            redis().getKeys().delete(bucket);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> readiness(node).get("consumer:expire") == HealthCheck.State.UP
                && producerCheck.call().getState() == HealthCheck.State.UP);
    }

    @Test
    void readinessTurnsDownWhileRedisIsStoppedAndUpWhenItIsBack() throws Exception {
        var redisServer = RedisServerExtension.process()
                .orElseThrow(() -> new IllegalStateException("this test stops and restarts its private redis-server"));
        CamelContext node = startWithBothChecksUp();
        HealthCheck producerCheck = HealthChecks.producerCheck(node);
        assertThat(producerCheck.getId()).isEqualTo("producer:redis-delay-orders?delay=1h");

        redisServer.stop();
        try {
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> readiness(node).get("consumer:expire") == HealthCheck.State.DOWN);
            HealthCheck.Result down = HealthCheckHelper.invokeReadiness(node).stream()
                    .filter(r -> r.getCheck().getId().equals("consumer:expire")).findFirst().orElseThrow();
            // the consumer's check probes its queue and its dead-letter queue, on the same server: either names it
            assertThat(down.getMessage()).hasValueSatisfying(m -> assertThat(m).containsAnyOf(
                    "Redis of queue orders does not answer", "Redis of dead-letter queue orders.dead does not answer"));
            assertThat(readiness(node)).as("Camel reports DOWN checks of every kind")
                    .containsEntry("producer:redis-delay-orders?delay=1h", HealthCheck.State.DOWN);
        } finally {
            redisServer.restart();
        }

        await().atMost(Duration.ofSeconds(30)).until(() -> readiness(node).get("consumer:expire") == HealthCheck.State.UP
                && producerCheck.call().getState() == HealthCheck.State.UP);
    }

    /**
     * Starts a context with a consumer route on queue orders (id expire) and a producer route to it from direct:order
     * with health checks on, schedules one message, and waits until both checks are UP.
     */
    private CamelContext startWithBothChecksUp() throws Exception {
        CamelContext node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders").routeId("expire").process(e -> e.getMessage().setBody("done"));
                from("direct:order").to("redis-delay:orders?delay=1h");
            }
        });
        HealthChecks.enableConsumersAndProducers(node);
        node.start();
        node.createProducerTemplate().sendBody("direct:order", "x");
        HealthCheck producerCheck = HealthChecks.producerCheck(node);
        await().atMost(Duration.ofSeconds(10)).until(() -> readiness(node).get("consumer:expire") == HealthCheck.State.UP
                && producerCheck.call().getState() == HealthCheck.State.UP);
        return node;
    }

    /**
     * With the component's consumer checks switched off, a consumer's readiness is the route's own state, UP while it
     * runs: a check attached disabled made Camel report UNKNOWN "Disabled", which readiness probes read as not ready.
     */
    @Test
    void aConsumerWhoseChecksAreSwitchedOffIsReadyWhileItsRouteRuns() throws Exception {
        for (String options : new String[] { "", "?consumerType=polling" }) {
            CamelContext node = createContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:orders" + options).routeId("expire").log("${body}");
                }
            });
            node.getComponent("redis-delay", RedisDelayComponent.class).setHealthCheckConsumerEnabled(false);
            HealthChecks.enableConsumersAndProducers(node);
            node.start();

            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(HealthCheckHelper.invokeReadiness(node))
                    .filteredOn(result -> result.getCheck().getId().equals("consumer:expire")).singleElement()
                    .extracting(result -> result.getState() + result.getMessage().map(message -> ": " + message).orElse(""))
                    .as("consumer:expire with options '%s'", options).isEqualTo("UP"));
            node.stop();
        }
    }
}
