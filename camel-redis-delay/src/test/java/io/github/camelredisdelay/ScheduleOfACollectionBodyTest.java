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
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.support.TypeConverterSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code schedule} stores one message. A body of messages (a collection, an array of objects, an iterator), which
 * {@code scheduleBatch} takes, is refused naming that operation: an empty list was stored as one message of no content,
 * and any other list failed with Camel's "argument type mismatch", which says nothing of what to do. One that a
 * converter of the application's turns into bytes is one message, and stored as such.
 */
@CamelSide
class ScheduleOfACollectionBodyTest extends RedisDelayTestSupport {

    static Stream<Arguments> bodiesOfMessages() {
        return Stream.of(
                Arguments.of("an empty List", List.of()),
                Arguments.of("a List of one", List.of("order-1")),
                Arguments.of("a List of two", List.of("order-1", "order-2")),
                Arguments.of("an array", new String[] { "order-1", "order-2" }));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bodiesOfMessages")
    void aScheduleOfABodyOfMessagesIsRefusedNamingScheduleBatchAndStoresNothing(String what, Object body)
            throws Exception {
        ProducerTemplate producer = startContext().createProducerTemplate();

        Exchange result = producer.send("redis-delay:orders?delay=1h", e -> e.getMessage().setBody(body));

        assertThat(redis().getMap(key("orders", "msg")).size()).as("messages stored").isZero();
        assertThat(result.getException()).as(what).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("queue orders").hasMessageContaining("operation=scheduleBatch")
                .hasMessageNotContaining("argument type mismatch");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bodiesOfMessages")
    void aBatchElementThatIsItselfABodyOfMessagesIsRefusedNamingItsIndexAndStoresNothing(String what, Object element)
            throws Exception {
        ProducerTemplate producer = startContext().createProducerTemplate();

        Exchange result = producer.send("redis-delay:orders?delay=1h&operation=scheduleBatch",
                e -> e.getMessage().setBody(List.of("order-0", element)));

        assertThat(redis().getMap(key("orders", "msg")).size()).as("messages stored").isZero();
        assertThat(result.getException()).as(what).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Element at index 1").hasMessageContaining("queue orders")
                .hasMessageNotContaining("argument type mismatch");
    }

    @Test
    void aBodyOfMessagesThatAConverterOfTheApplicationTurnsIntoBytesIsStoredAsOneMessage() throws Exception {
        CamelContext context = startContext();
        context.getTypeConverterRegistry().addTypeConverter(byte[].class, OrderLines.class, new TypeConverterSupport() {
            @Override
            public <T> T convertTo(Class<T> type, Exchange exchange, Object value) {
                return type.cast(String.join("\n", (OrderLines) value).getBytes(StandardCharsets.UTF_8));
            }
        });
        ProducerTemplate producer = context.createProducerTemplate();

        Exchange result = producer.send("redis-delay:orders?delay=1h",
                e -> e.getMessage().setBody(new OrderLines(List.of("line-1", "line-2"))));

        assertThat(result.getException()).isNull();
        assertThat(redis().getMap(key("orders", "msg")).size()).as("messages stored").isOne();
    }

    /** An application's type that is a list and converts, by its own converter, into one message. */
    static final class OrderLines extends ArrayList<String> {

        OrderLines(List<String> lines) {
            super(lines);
        }
    }
}
