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
package io.github.camelredisdelay.faults;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.RedisDelayComponent;
import io.github.camelredisdelay.RedisDelayConstants;
import io.github.camelredisdelay.embedded.RedisBinary;
import io.github.camelredisdelay.embedded.RedisServerOptions;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.ProcessSignals;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.RedissonShutdownException;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A schedule in flight when its Redis client shuts down (the context stops, or the application shuts down the client it
 * gave the component) must fail, not leave its caller waiting for ever. Redisson fails such a call itself only when it
 * tracked it, and it tracks no pipeline: a schedule that waits for replicas ({@code syncReplicas}) is sent as one. Here
 * the server is stopped with SIGSTOP, so the schedule is written and gets no answer before the client shuts down.
 */
@CamelSide
class ClientShutDownUnderAScheduleTest extends FaultTestSupport {

    /** Longer than the client's shutdown and the transfer task's interval, with room for a loaded machine. */
    private static final long OUTCOME_WAIT_SECONDS = 30;

    @Test
    void aScheduleInFlightWhenTheApplicationShutsItsClientDownFails() throws Exception {
        try (RedisServerProcess server = privateServer()) {
            Config config = new Config();
            config.useSingleServer().setAddress(server.uri());
            RedissonClient applications = Redisson.create(config);
            try {
                CamelContext node = createContext();
                node.getComponent("redis-delay", RedisDelayComponent.class).getConfiguration()
                        .setRedissonClient(applications);
                node.start();
                CompletableFuture<Throwable> outcome = scheduleWhileSilent(node, server, "redis-delay:orders");

                applications.shutdown();

                assertFailedOnceResumed(outcome, server, "the shutdown");
            } finally {
                ProcessSignals.resume(server);
                applications.shutdown();
            }
        }
    }

    @Test
    void aScheduleInFlightWhenTheContextStopsFails() throws Exception {
        try (RedisServerProcess server = privateServer()) {
            CamelContext node = startContext();
            try {
                CompletableFuture<Throwable> outcome
                        = scheduleWhileSilent(node, server, "redis-delay:orders?address=" + server.uri());

                CompletableFuture.runAsync(node::stop).get(1, TimeUnit.MINUTES);

                assertFailedOnceResumed(outcome, server, "the stop");
            } finally {
                ProcessSignals.resume(server);
            }
        }
    }

    /**
     * Resumes the server and checks that the schedule in flight at {@code when} failed because the client shut down.
     */
    private static void assertFailedOnceResumed(CompletableFuture<Throwable> outcome, RedisServerProcess server, String when)
            throws Exception {
        ProcessSignals.resume(server);
        assertThat(outcome.get(OUTCOME_WAIT_SECONDS, TimeUnit.SECONDS))
                .as("what the schedule in flight at %s failed with", when)
                .hasRootCauseInstanceOf(RedissonShutdownException.class);
    }

    private static RedisServerProcess privateServer() {
        RedisBinary binary
                = RedisBinary.select(System.getProperty(RedisServerExtension.BINARY_PROPERTY, RedisBinary.PATH_CHOICE));
        return RedisServerProcess.start(binary, RedisServerOptions.defaults());
    }

    /**
     * Connects the endpoint {@code uri} (a stats call), stops the server with SIGSTOP, and sends one synchronous
     * schedule that waits for a replica; returns what it fails with, once it has had time to reach the silent server.
     */
    private static CompletableFuture<Throwable> scheduleWhileSilent(CamelContext node, RedisServerProcess server, String uri)
            throws Exception {
        String schedule = uri + (uri.contains("?") ? "&" : "?") + "delay=1h&synchronous=true&syncReplicas=1";
        ProducerTemplate producer = node.createProducerTemplate();
        producer.requestBodyAndHeader(schedule, null, RedisDelayConstants.OPERATION, "stats");
        ProcessSignals.pause(server);
        CompletableFuture<Throwable> outcome = CompletableFuture.supplyAsync(() -> {
            try {
                producer.sendBody(schedule, "order-1");
                return null;
            } catch (RuntimeException e) {
                return e;
            }
        });
        // the schedule reaches the silent server well within half a second; the client's own timeout (3 s) is not yet up
        await("the schedule waits for the silent server").during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2))
                .until(() -> !outcome.isDone());
        return outcome;
    }
}
