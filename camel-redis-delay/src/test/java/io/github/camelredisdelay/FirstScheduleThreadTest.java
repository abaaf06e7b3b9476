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

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.TypeConversionException;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.support.TypeConverterSupport;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The component promises that route work never runs on the Redis client's I/O thread. An endpoint's first schedules,
 * sent before the first check of its queue's shard count has answered, are prepared in a continuation of that check
 * (RedisDelayProducer: checked.thenCompose(answered -> scheduleChecked(exchange))), which runs on Redisson's Netty
 * event loop: the body's conversion (the application's type converters, a spooled stream cache read from disk), the
 * header filter strategy and the due-time parsing then run there. Each new endpoint does this, so a
 * {@code toD("redis-delay:orders?delay=${header.wait}")} does it for every distinct delay.
 */
@CamelSide
class FirstScheduleThreadTest extends RedisDelayTestSupport {

    private static final int QUEUES = 5;

    private final List<String> convertedOn = new CopyOnWriteArrayList<>();

    record Order(String id) {
    }

    @Test
    void theBodyOfAnEndpointsFirstScheduleIsNeverConvertedOnTheRedisClientsEventLoop() throws Exception {
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:order").toD("redis-delay:${header.queue}?delay=1h");
            }
        });
        node.getTypeConverterRegistry().addTypeConverter(byte[].class, Order.class, new TypeConverterSupport() {
            @Override
            public <T> T convertTo(Class<T> type, Exchange exchange, Object value) throws TypeConversionException {
                convertedOn.add(Thread.currentThread().getName());
                return type.cast(((Order) value).id().getBytes(StandardCharsets.UTF_8));
            }
        });

        for (int i = 0; i < QUEUES; i++) {
            String queue = "orders-" + i;
            Exchange sent = node.createProducerTemplate().send("direct:order", e -> {
                e.getMessage().setBody(new Order("o-" + queue));
                e.getMessage().setHeader("queue", queue);
            });
            assertThat(sent.getException()).isNull();
            assertThat(dueSet(queue).size()).isEqualTo(1);
        }

        // found: every conversion ran on redisson-netty-* threads
        assertThat(convertedOn).hasSize(QUEUES).noneMatch(thread -> thread.startsWith("redisson"));
    }
}
