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
import java.util.Set;

import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An id of the largest allowed length (512 characters) dead-lettered a second time while its first dead letter waits is
 * held in the dead-letter queue as {@code <id>#<stream entry>}, longer than any id a producer accepts.
 */
class LongIdDeadLetterTest extends RedisDelayTestSupport {

    @Test
    void aSecondDeadLetterOfAnIdOfTheLargestLengthCanBeRedrivenByTheIdTheDeadLetterQueueHoldsItUnder() throws Exception {
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders?maxDeliveries=1").routeId("failing").errorHandler(noErrorHandler())
                        .throwException(new IllegalStateException("shop down"));
            }
        });
        ProducerTemplate producer = node.createProducerTemplate();
        String id = "o".repeat(512);

        producer.sendBodyAndHeader("redis-delay:orders", "first", RedisDelayConstants.MESSAGE_ID, id);
        // and acknowledged: the move stores the dead letter first, and until the acknowledgement the queue holds the
        // id (the second schedule of it would be a duplicate, kept out; a redrive leaves the dead letter)
        await().atMost(Duration.ofSeconds(10)).until(() -> redis().getMap(key("orders.dead", "msg")).size() == 1
                && redis().getMap(key("orders", "msg")).isEmpty());
        producer.sendBodyAndHeader("redis-delay:orders", "second", RedisDelayConstants.MESSAGE_ID, id);
        await().atMost(Duration.ofSeconds(10)).until(() -> redis().getMap(key("orders.dead", "msg")).size() == 2
                && redis().getMap(key("orders", "msg")).isEmpty());
        node.getRouteController().stopRoute("failing");
        Set<Object> held = redis().getMap(key("orders.dead", "msg")).keySet();
        String suffixed = held.stream().map(String::valueOf).filter(h -> !h.equals(id)).findFirst().orElseThrow();
        assertThat(suffixed).startsWith(id + "#");

        // the component page: a later dead letter "goes back under the id, whether the redrive names the id or that
        // stored one"
        Exchange redrive = producer.send("redis-delay:orders?operation=redrive",
                e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, suffixed));

        assertThat(redrive.getException()).isNull();
        assertThat(redrive.getMessage().getBody()).isEqualTo(1L);
    }
}
