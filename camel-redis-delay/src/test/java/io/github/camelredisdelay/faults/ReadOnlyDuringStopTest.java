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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.internal.QueueKeys;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Redis turns read-only (a master demoted to a replica) while a consumer stops, so the stop cannot acknowledge what
 * finished; Redis takes writes again afterwards.
 */
class ReadOnlyDuringStopTest extends FaultTestSupport {

    @Test
    void aMessageWhoseAcknowledgementTheStopCouldNotSendIsDeliveredAgainOrAcknowledged() throws Exception {
        RedisServerProcess server = redisProcess();
        List<String> routed = new CopyOnWriteArrayList<>();
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:ro?visibilityTimeout=6s").routeId("ro").process(e -> {
                    routed.add(e.getMessage().getBody(String.class));
                    entered.countDown();
                    release.await(10, TimeUnit.SECONDS);
                });
            }
        });
        node.createProducerTemplate().sendBody("redis-delay:ro", "m1");
        assertThat(entered.await(10, TimeUnit.SECONDS)).as("m1 routed").isTrue();

        // demoted: a replica of a master that is not there keeps its data and refuses every write (READONLY)
        server.command("REPLICAOF", "127.0.0.1", "1");
        try {
            release.countDown();
            // the stop waits for the exchange, which succeeds; its acknowledgement is refused
            node.getRouteController().stopRoute("ro");
        } finally {
            server.command("REPLICAOF", "NO", "ONE");
        }

        // Redis takes writes again, well within the visibility timeout: the message must be acknowledged, or delivered
        // again once its lease expired, as the stop's warning says
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:ro?visibilityTimeout=6s").process(e -> routed.add(e.getMessage().getBody(String.class)));
            }
        });
        await("m1 acknowledged or delivered again").atMost(Duration.ofSeconds(25)).pollInterval(Duration.ofMillis(200))
                .until(() -> routed.size() > 1 || redis().getMap(key("ro", "msg")).size() == 0
                        && redis().getStream(key("ro", "ready")).getPendingInfo(QueueKeys.GROUP).getTotal() == 0);
    }
}
