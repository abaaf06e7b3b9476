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
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The exact bounds the component page gives for options and due times: the first value past each is refused, the last
 * one within is taken, and a due time before 1970 is due now rather than refused.
 */
class OptionAndDueTimeBoundariesTest extends RedisDelayTestSupport {

    /**
     * The first value past an option's documented bound is refused, naming it and the bound, and the bound itself is
     * taken. A maxDeliveries of -1 would retry for ever in silence (as 0 does, on purpose), where the writer meant some
     * limit.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "maxDeliveries=-1 | Invalid maxDeliveries -1 of queue orders: at least 0 is required | maxDeliveries=0",
            "transferBatchSize=10001 | Invalid transferBatchSize 10001 of queue orders: at most 10000 | transferBatchSize=10000",
            "concurrentConsumers=0 | Invalid concurrentConsumers 0 of queue orders: at least 1 is required | concurrentConsumers=1" })
    void theFirstValuePastAnOptionsBoundIsRefusedAndTheBoundTaken(String refused, String message, String taken)
            throws Exception {
        CamelContext node = startContext();

        assertThatThrownBy(() -> node.getEndpoint("redis-delay:orders?" + refused)).rootCause()
                .hasMessageContaining(message);
        assertThat(node.getEndpoint("redis-delay:orders?" + taken)).isNotNull();
    }

    @Test
    void aDelayHeaderOfExactlyTheFirstThirteenDigitMillisecondsIsRefusedAsADueTimeAndOneLessIsADelay()
            throws Exception {
        var producer = startContext().createProducerTemplate();

        Exchange refused = producer.send("redis-delay:orders",
                e -> e.getMessage().setHeader(RedisDelayConstants.DELAY, 1_000_000_000_000L));
        Exchange taken = producer.send("redis-delay:orders",
                e -> e.getMessage().setHeader(RedisDelayConstants.DELAY, 999_999_999_999L));

        assertThat(refused.getException()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1000000000000 ms").hasMessageContaining(RedisDelayConstants.DUE_AT);
        assertThat(taken.getException()).isNull();
        assertThat(redis().getMap(key("orders", "msg")).size()).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(strings = { "instant", "long", "text" })
    void aDueTimeBefore1970IsDueNow(String form) throws Exception {
        List<Object> delivered = new CopyOnWriteArrayList<>();
        var producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders").process(e -> delivered.add(e.getMessage().getBody()));
            }
        }).createProducerTemplate();
        Instant moonLanding = Instant.parse("1969-07-20T20:17:40Z");
        Object dueAt = switch (form) {
            case "instant" -> moonLanding;
            case "long" -> moonLanding.toEpochMilli();
            default -> moonLanding.toString();
        };

        Exchange sent = producer.send("redis-delay:orders?delay=1h", e -> {
            e.getMessage().setBody("overdue since 1969");
            e.getMessage().setHeader(RedisDelayConstants.DUE_AT, dueAt);
        });

        assertThat(sent.getException()).isNull();
        await().atMost(Duration.ofSeconds(10)).until(() -> delivered.size() == 1);
        assertThat(delivered).containsExactly("overdue since 1969");
    }
}
