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

import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Message;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Nodes of one queue whose consumer options disagree (a rolling change, or a node configured apart by mistake): the
 * failing consumer's options decide what follows a failure, and what it says about the message stays true.
 */
class DisagreeingNodesTest extends RedisDelayTestSupport {

    private final List<Integer> failedDeliveries = new CopyOnWriteArrayList<>();
    private final List<Message> deadLetters = new CopyOnWriteArrayList<>();

    @Test
    void aNodeAllowingFewerDeliveriesDeadLettersAMessageOthersRetriedWithItsLastFailureNotAsACrash() throws Exception {
        CamelContext lenient = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from("redis-delay:orders?maxDeliveries=10&retrySchedule=50,50,3000").process(e -> {
                    failedDeliveries.add(e.getMessage().getHeader(RedisDelayConstants.DELIVERY_COUNT, Integer.class));
                    throw new IllegalStateException("payment service down");
                });
            }
        });
        lenient.createProducerTemplate().sendBodyAndHeader("redis-delay:orders", "order", RedisDelayConstants.MESSAGE_ID,
                "order-1");
        await().atMost(Duration.ofSeconds(10)).until(() -> dueSet("orders").dueOf("order-1") != null
                && failedDeliveries.size() == 3);
        lenient.stop();

        // the new configuration, rolled out: fewer deliveries; its first is the message's fourth
        LogLines log = LogLines.of(Settlement.class);
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from("redis-delay:orders?maxDeliveries=2").process(e -> {
                    failedDeliveries.add(e.getMessage().getHeader(RedisDelayConstants.DELIVERY_COUNT, Integer.class));
                    throw new IllegalStateException("payment service down");
                });
                from("redis-delay:orders.dead").process(e -> deadLetters.add(e.getMessage().copy()));
            }
        });

        try (log) {
            await().atMost(Duration.ofSeconds(15)).until(() -> deadLetters.size() == 1);
        }
        assertThat(failedDeliveries).containsExactly(1, 2, 3);
        assertThat(deadLetters.get(0).getHeader(RedisDelayConstants.LAST_ERROR, String.class))
                .as("every delivery failed with the route's exception; none was left to its visibility timeout")
                .contains("java.lang.IllegalStateException: payment service down")
                .doesNotContain("visibility timeout");
        assertThat(log.lines()).anySatisfy(line -> assertThat(line).startsWith("WARN Message order-1 on queue orders")
                .contains("failed 3 deliveries", "different maxDeliveries (use one value on every node)"));
    }
}
