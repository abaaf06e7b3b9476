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
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import io.github.camelredisdelay.embedded.RedisBinary;
import io.github.camelredisdelay.embedded.RedisServerOptions;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.HealthChecks;
import io.github.camelredisdelay.test.NeedsRedisProcess;
import io.github.camelredisdelay.test.ProcessSignals;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.console.DevConsole;
import org.apache.camel.console.DevConsoleResolver;
import org.apache.camel.health.HealthCheck;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A readiness probe and the dev console of a context with many queues on a Redis that stopped answering (SIGSTOP).
 * Kubernetes and the actuator ask every few seconds, with a timeout of a second or so, so the probe must answer DOWN
 * within a bounded time, whatever the number of queues, not two seconds per check one after another, nor the client's
 * whole connect attempt. An operator opens the console to find out what is wrong: it must answer as soon, saying of
 * each queue that Redis does not answer.
 */
@CamelSide
@NeedsRedisProcess
class SilentRedisMonitoringTest extends RedisDelayTestSupport {

    private static final int QUEUES = 20;

    /**
     * A silent Redis keeps its connections open, so the calls of the client hold every pooled connection waiting for
     * it, and later calls find none free, as they would behind a pool too small for the calls: the checks must not tell
     * the operator that Redis is fine.
     */
    @Test
    void readinessOfManyQueuesIsDownWithinABoundedTimeWhileRedisIsSilentAndDoesNotClearRedis() throws Exception {
        RedisServerProcess server = privateRedis();
        CamelContext node = contextOfManyQueues();
        HealthChecks.enableConsumersAndProducers(node);
        node.start();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> HealthChecks.readiness(node).values().stream().allMatch(HealthCheck.State.UP::equals));

        ProcessSignals.pause(server);
        try {
            CompletableFuture<Map<String, HealthCheck.State>> probe
                    = CompletableFuture.supplyAsync(() -> HealthChecks.readiness(node));
            await("one readiness probe of " + QUEUES + " queues on a silent Redis")
                    .atMost(Duration.ofSeconds(10)).until(probe::isDone);
            assertThat(probe.join()).hasSize(QUEUES).allSatisfy((id, state) -> assertThat(state)
                    .as(id).isEqualTo(HealthCheck.State.DOWN));
            // the calls of the first probes hold the pool by now
            await().atMost(Duration.ofSeconds(10)).until(() -> HealthChecks.downReasons(node).size() == QUEUES);
            assertThat(HealthChecks.downReasons(node)).allSatisfy((id, reason) -> assertThat(reason).as(id)
                    .doesNotContain("not a Redis outage"));
        } finally {
            ProcessSignals.resume(server);
        }
        await().atMost(Duration.ofSeconds(30))
                .until(() -> HealthChecks.readiness(node).values().stream().allMatch(HealthCheck.State.UP::equals));
    }

    @Test
    void readinessIsDownWithinTwoSecondsOnARedisThatNeverAnswered() throws Exception {
        RedisBinary binary
                = RedisBinary.select(System.getProperty(RedisServerExtension.BINARY_PROPERTY, RedisBinary.PATH_CHOICE));
        try (RedisServerProcess silent = RedisServerProcess.start(binary, RedisServerOptions.defaults())) {
            ProcessSignals.pause(silent);
            try {
                CamelContext node = createContext(new RouteBuilder() {
                    @Override
                    public void configure() {
                        from("redis-delay:orders?address=" + silent.uri()).routeId("orders").log("${body}");
                    }
                });
                HealthChecks.enableConsumersAndProducers(node);
                node.start();

                CompletableFuture<Map<String, HealthCheck.State>> probe
                        = CompletableFuture.supplyAsync(() -> HealthChecks.readiness(node));
                // the check waits two seconds for Redis' answer, not for the client's first connect attempt (6 s)
                await("one readiness probe of a queue whose Redis never answered")
                        .atMost(Duration.ofSeconds(4)).until(probe::isDone);
                assertThat(probe.join()).containsEntry("consumer:orders", HealthCheck.State.DOWN);
            } finally {
                ProcessSignals.resume(silent);
            }
        }
    }

    @Test
    void theConsoleOfManyQueuesAnswersWithinABoundedTimeWhileRedisIsSilent() throws Exception {
        RedisServerProcess server = privateRedis();
        CamelContext node = contextOfManyQueues();
        node.start();
        DevConsole console = node.getCamelContextExtension().getContextPlugin(DevConsoleResolver.class)
                .resolveDevConsole("redis-delay");
        assertThat((String) console.call(DevConsole.MediaType.TEXT)).contains("tenant-9").doesNotContain("error:");

        ProcessSignals.pause(server);
        try {
            CompletableFuture<String> text
                    = CompletableFuture.supplyAsync(() -> (String) console.call(DevConsole.MediaType.TEXT));
            // a second for the first read Redis leaves unanswered, none for the queues after it: not the client's
            // time-outs (3 s, and once more) per read
            await("the console of " + QUEUES + " queues on a silent Redis").atMost(Duration.ofSeconds(4))
                    .until(text::isDone);
            assertThat(text.join().lines().filter(line -> line.startsWith("Queue: ")))
                    .as("the console's text: %s", text.join()).hasSize(QUEUES);
            assertThat(text.join().lines().filter(line -> line.strip().startsWith("error: Redis does not answer")))
                    .as("the console's text: %s", text.join()).hasSize(QUEUES);
        } finally {
            ProcessSignals.resume(server);
        }
    }

    private static RedisServerProcess privateRedis() {
        return RedisServerExtension.process()
                .orElseThrow(() -> new IllegalStateException("this test pauses its private redis-server"));
    }

    /** A context, not started, with a consumer of each of {@link #QUEUES} queues. */
    private CamelContext contextOfManyQueues() throws Exception {
        return createContext(new RouteBuilder() {
            @Override
            public void configure() {
                for (int i = 0; i < QUEUES; i++) {
                    from("redis-delay:tenant-" + i).routeId("tenant-" + i).log("${body}");
                }
            }
        });
    }
}
