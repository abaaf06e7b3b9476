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
package io.github.camelredisdelay.sentinel;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.internal.TransferTask;
import io.github.camelredisdelay.test.HealthChecks;
import io.github.camelredisdelay.test.LogLines;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.health.HealthCheck;
import org.apache.camel.health.HealthCheckHelper;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a node reports while the master of a Sentinel deployment is down (killed) and no replica takes over (its replica
 * is down too): Redisson's own message ({@code Unexpected exception while processing command}) says nothing of why.
 * With the replica up, the Sentinels promote it a second or two after the kill, which may come before the transfer
 * task's next call, or while the client retries it, so that it never fails.
 */
class SentinelMasterDownTest extends SentinelTestSupport {

    private static final String REFUSED = "Connection refused";

    @Test
    void readinessAndTheTransferTasksWarningNameTheRefusedConnectionWhileTheMasterIsDown() throws Exception {
        CamelContext node;
        Set<String> downMessages = ConcurrentHashMap.newKeySet();
        // the transfer task meets the dead master on its next run, within 100 ms; a consumer waiting in its blocking
        // read may not
        try (LogLines transferLog = LogLines.of(TransferTask.class)) {
            node = startNode(new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:down?transferInterval=100").to("mock:never");
                }
            });
            HealthChecks.enableConsumersAndProducers(node);
            await("readiness UP").atMost(Duration.ofSeconds(10)).until(() -> readiness(node).isEmpty());

            RedisServerProcess master = deployment().master();
            deployment().dataNodes().stream().filter(dataNode -> dataNode != master).forEach(RedisServerProcess::kill);
            deployment().killMaster();

            await("a DOWN readiness naming the refused connection").atMost(Duration.ofSeconds(15))
                    .pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
                        downMessages.addAll(readiness(node));
                        assertThat(downMessages).as("messages of DOWN readiness checks")
                                .anySatisfy(message -> assertThat(message).contains(REFUSED));
                    });
            await("the transfer task's warning").atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(transferLog.lines())
                            .anySatisfy(line -> assertThat(line).startsWith("WARN").contains(REFUSED)));
        }
    }

    /** The messages of the readiness checks that are DOWN; empty when all are UP. */
    private static List<String> readiness(CamelContext node) {
        return HealthCheckHelper.invokeReadiness(node).stream()
                .filter(result -> result.getState() == HealthCheck.State.DOWN)
                .map(result -> result.getMessage().orElse("DOWN without a message")).toList();
    }
}
