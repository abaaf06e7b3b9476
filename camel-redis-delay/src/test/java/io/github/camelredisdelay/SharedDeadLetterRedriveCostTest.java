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
import java.util.stream.IntStream;

import io.github.camelredisdelay.test.CommandStats;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A dead-letter queue that two queues share, during an outage of one queue's consumers: that queue's dead letters pile
 * up in front of the other's. A redrive of the other queue with a small limit (JMX {@code redriveDeadLetters(1)},
 * header {@code CamelRedisDelayRedriveLimit}) must still read the dead-letter queue a page at a time, not one dead
 * letter per script call.
 */
class SharedDeadLetterRedriveCostTest extends RedisDelayTestSupport {

    private static final int OTHER_QUEUES = 1_000;

    @Test
    void aRedriveOfOneReadsTheOtherQueuesDeadLettersAPageAtATime() throws Exception {
        CamelContext failing = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:refunds?maxDeliveries=1&deadLetterQueue=shared.dead&maxMessagesPerPoll=50")
                        .throwException(new IllegalStateException("refund service down"));
                from("redis-delay:orders?maxDeliveries=1&deadLetterQueue=shared.dead")
                        .throwException(new IllegalStateException("shop said no"));
            }
        });
        ProducerTemplate producer = failing.createProducerTemplate();
        producer.sendBody("redis-delay:refunds?operation=scheduleBatch",
                IntStream.range(0, OTHER_QUEUES).mapToObj(i -> "refund " + i).toList());
        await().atMost(Duration.ofSeconds(60))
                .until(() -> redis().getMap(key("shared.dead", "msg")).size() == OTHER_QUEUES);
        producer.sendBodyAndHeader("redis-delay:orders", "order", RedisDelayConstants.MESSAGE_ID, "o1");
        await().atMost(Duration.ofSeconds(10))
                .until(() -> redis().getMap(key("shared.dead", "msg")).size() == OTHER_QUEUES + 1);
        failing.stop();
        ProducerTemplate operator = startContext().createProducerTemplate();

        Map<String, Long> before = CommandStats.calls(redis());
        Object moved = operator.requestBodyAndHeader("redis-delay:orders?operation=redrive&deadLetterQueue=shared.dead",
                null, RedisDelayConstants.REDRIVE_LIMIT, 1);
        Map<String, Long> after = CommandStats.calls(redis());

        assertThat(moved).isEqualTo(1L);
        long scriptCalls = after.getOrDefault("evalsha", 0L) - before.getOrDefault("evalsha", 0L)
                           + after.getOrDefault("evalsha_ro", 0L) - before.getOrDefault("evalsha_ro", 0L);
        // pages of 100 (Redrive.PAGE): about 10 listing calls and as many returns, plus the move itself
        assertThat(scriptCalls).as("script calls of a redrive of one behind " + OTHER_QUEUES + " other queue's dead letters")
                .isLessThan(100);
    }
}
