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
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.test.LogLines;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Redis answers every command but refuses writes for want of replicas ({@code min-replicas-to-write} with none
 * connected: {@code NOREPLICAS}), as a master does whose replicas dropped away.
 */
class TooFewReplicasTest extends FaultTestSupport {

    @Test
    void writesRefusedForTooFewReplicasAreLoggedAsAnErrorRedisRepliedNotAsRedisOutOfReach() throws Exception {
        RedisServerProcess server = redisProcess();
        List<String> routed = new CopyOnWriteArrayList<>();
        try (LogLines log = LogLines.of("io.github.camelredisdelay")) {
            startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:replicated").routeId("replicated")
                            .process(e -> routed.add(e.getMessage().getBody(String.class)));
                }
            }).createProducerTemplate().sendBodyAndHeader("redis-delay:replicated", "m1", "CamelRedisDelayDelay", 1_000);

            server.command("CONFIG", "SET", "min-replicas-to-write", "1");
            List<String> refusals;
            try {
                await().atMost(Duration.ofSeconds(20))
                        .until(() -> log.lines().stream().filter(line -> line.contains("NOREPLICAS")).count() >= 2);
                refusals = log.lines().stream().filter(line -> line.contains("NOREPLICAS")).toList();
            } finally {
                server.command("CONFIG", "SET", "min-replicas-to-write", "0");
            }

            assertThat(refusals).as("the transfer task's and the consumer's WARN")
                    .anySatisfy(line -> assertThat(line).contains("Transfer task of queue replicated"))
                    .anySatisfy(line -> assertThat(line).contains("Consumer of queue replicated"))
                    .allSatisfy(line -> assertThat(line).startsWith("WARN").contains("error Redis replied")
                            .doesNotContain("cannot reach Redis"));
            await().atMost(Duration.ofSeconds(20)).until(() -> routed.contains("m1"));
            assertThat(log.lines()).noneMatch(line -> line.contains("reaches Redis again"));
        }
    }
}
