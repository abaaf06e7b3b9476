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
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.embedded.RedisBinary;
import io.github.camelredisdelay.embedded.RedisServerOptions;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.internal.QueueGuard;
import io.github.camelredisdelay.test.HealthChecks;
import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.health.HealthCheck;
import org.apache.camel.health.HealthCheckHelper;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Redis that lacks a command the component needs (a Redis before 6.2 has no {@code XAUTOCLAIM}, with which a consumer
 * takes over the messages of one that stopped or crashed; a server may also rename a command away) is refused loudly
 * rather than used in part: schedules fail naming the command and the version needed, consumers read nothing, their
 * health checks are DOWN saying why, and an ERROR says it once. Here a real server with {@code XAUTOCLAIM} renamed away
 * stands in for an older one: Redis answers the component's scripts the same way (as a Redis 6.0.16 did when tried).
 */
class ServerLackingACommandTest {

    private static RedisServerProcess server;

    private final List<String> delivered = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void startServerWithoutXautoclaim() {
        RedisBinary binary
                = RedisBinary.select(System.getProperty(RedisServerExtension.BINARY_PROPERTY, RedisBinary.PATH_CHOICE));
        server = RedisServerProcess.start(binary,
                RedisServerOptions.defaults().withExtraArgs("--rename-command", "XAUTOCLAIM", ""));
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @Test
    void schedulesFailConsumersReadNothingAndTheirChecksAreDownNamingTheCommandAndTheVersionNeeded() throws Exception {
        String uri = "redis-delay:orders?address=" + server.uri();
        try (LogLines log = LogLines.of(QueueGuard.class);
             CamelContext context = new DefaultCamelContext()) {
            context.getShutdownStrategy().setTimeout(10);
            context.addRoutes(new RouteBuilder() {
                @Override
                public void configure() {
                    from("direct:order").to(uri);
                    from(uri).routeId("expire").process(e -> delivered.add(e.getMessage().getBody(String.class)));
                }
            });
            HealthChecks.enableConsumersAndProducers(context);
            context.start();

            Exception refusal = context.createProducerTemplate().send("direct:order", e -> e.getMessage().setBody("o-1"))
                    .getException();

            assertThat(refusal).as("a schedule a consumer could not take over if its consumer crashed").isNotNull();
            assertThat(refusal.getMessage()).contains("queue orders", "XAUTOCLAIM", "Redis 6.2 or later");
            assertThat(server.command("HLEN", "camel:delay:{orders}:msg")).as("nothing stored").isEqualTo("0");
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                HealthCheck.Result consumer = HealthCheckHelper.invoke(context).stream()
                        .filter(result -> result.getCheck().getId().equals("consumer:expire"))
                        .findFirst().orElseThrow();
                assertThat(consumer.getState()).isEqualTo(HealthCheck.State.DOWN);
                assertThat(consumer.getMessage()).hasValueSatisfying(
                        message -> assertThat(message).contains("XAUTOCLAIM", "Redis 6.2 or later"));
            });
            assertThat(log.lines())
                    .filteredOn(
                            line -> line.startsWith("ERROR") && line.contains("XAUTOCLAIM") && line.contains("queue orders "))
                    .as("said once, however often it is checked").hasSize(1);
            assertThat(delivered).isEmpty();
        }
    }

    @Test
    void refusalNamesTheServerAndVersionTheUserRunsNotTheRedisVersionValkeyReportsForCompatibility() throws Exception {
        String info = server.command("INFO", "server");
        String running = infoField(info, "valkey_version") != null
                ? "Valkey " + infoField(info, "valkey_version")
                : "Redis " + infoField(info, "redis_version");
        String uri = "redis-delay:invoices?address=" + server.uri();
        try (CamelContext context = new DefaultCamelContext()) {
            context.getShutdownStrategy().setTimeout(10);
            context.addRoutes(new RouteBuilder() {
                @Override
                public void configure() {
                    from("direct:invoice").to(uri);
                }
            });
            context.start();

            Exception refusal = context.createProducerTemplate()
                    .send("direct:invoice", e -> e.getMessage().setBody("i-1")).getException();

            assertThat(refusal).isNotNull();
            assertThat(refusal.getMessage()).as("the server as its operator knows it (%s)", running)
                    .startsWith(running + " holding queue invoices lacks the command XAUTOCLAIM");
        }
    }

    private static String infoField(String info, String field) {
        return info.lines().filter(line -> line.startsWith(field + ":"))
                .map(line -> line.substring(field.length() + 1).strip()).findFirst().orElse(null);
    }
}
