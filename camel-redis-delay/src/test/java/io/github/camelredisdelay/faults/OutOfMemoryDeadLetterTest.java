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
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.camelredisdelay.RedisDelayConstants;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.test.LogLines;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Redis reaches {@code maxmemory} (policy {@code noeviction}) while a delivery fails for the last time: the dead-letter
 * queue refuses the copy, and the message is dead-lettered once memory is back.
 */
class OutOfMemoryDeadLetterTest extends FaultTestSupport {

    private final AtomicInteger failures = new AtomicInteger();

    @Test
    void aDeadLetterRefusedForLackOfMemoryKeepsTheRoutesErrorAsItsLastError() throws Exception {
        ProducerTemplate producer = failOnceWhileOutOfMemory(node -> {
        });

        Exchange deadLetter = awaitDeadLetter(producer);
        assertThat(failures).as("deliveries to the route").hasValue(1);
        assertThat(deadLetter.getMessage().getHeader(RedisDelayConstants.LAST_ERROR, String.class))
                .as("the dead letter's last error")
                .contains("IllegalStateException").contains("the shop is down");
    }

    @Test
    void aDeadLetterRefusedForLackOfMemoryIsWrittenOnceMemoryIsBackAfterItsRouteStopped() throws Exception {
        // the consumer stops while its failed delivery waits for Redis to take the dead letter
        ProducerTemplate producer = failOnceWhileOutOfMemory(node -> node.getRouteController().stopRoute("failing"));

        Exchange deadLetter = awaitDeadLetter(producer);
        assertThat(deadLetter.getMessage().getHeader(RedisDelayConstants.LAST_ERROR, String.class))
                .as("the dead letter's last error").contains("the shop is down");
    }

    /**
     * Starts a route that fails every delivery (one allowed), schedules message m1, and makes Redis run out of memory
     * under noeviction before m1 is due, once the consumer made the queue's stream and group (the transfer and the read
     * still work); once the failed delivery could not be dead-lettered, runs {@code meanwhile} and gives Redis its
     * memory back.
     */
    private ProducerTemplate failOnceWhileOutOfMemory(NodeAction meanwhile) throws Exception {
        RedisServerProcess server = redisProcess();
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:oom?maxDeliveries=1&visibilityTimeout=1s").routeId("failing").process(e -> {
                    failures.incrementAndGet();
                    throw new IllegalStateException("the shop is down");
                });
            }
        });
        ProducerTemplate producer = node.createProducerTemplate();
        try (LogLines settlement = LogLines.of(Class.forName("io.github.camelredisdelay.Settlement"))) {
            producer.sendBodyAndHeaders("redis-delay:oom", "order-1",
                    Map.of(RedisDelayConstants.MESSAGE_ID, "m1", RedisDelayConstants.DELAY, 1_500L));
            // the consumer has made the queue's stream and group (refused once memory is out) before memory runs out
            await("the consumer's first read").atMost(Duration.ofSeconds(10))
                    .until(() -> "1".equals(server.command("EXISTS", key("oom", "ready"))));
            server.command("CONFIG", "SET", "maxmemory", "1");
            try {
                await("the failed delivery could not be dead-lettered").atMost(Duration.ofSeconds(20))
                        .until(() -> settlement.lines().stream().anyMatch(line -> line.contains("m1")));
                meanwhile.run(node);
            } finally {
                server.command("CONFIG", "SET", "maxmemory", "0");
            }
        }
        return producer;
    }

    private static Exchange awaitDeadLetter(ProducerTemplate producer) {
        await("dead-lettered once memory is back").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                .until(() -> "dead".equals(peek(producer).getMessage().getHeader(RedisDelayConstants.STATE)));
        return peek(producer);
    }

    /** Something done to the node while Redis is out of memory. */
    private interface NodeAction {
        void run(CamelContext node) throws Exception;
    }

    private static Exchange peek(ProducerTemplate producer) {
        return producer.request("redis-delay:oom?operation=peek",
                e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, "m1"));
    }
}
