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
import java.util.stream.IntStream;

import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.console.DevConsole;
import org.apache.camel.console.DevConsoleResolver;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The dev console's {@code newestDeadLetters} of a queue whose dead-letter queue another queue shares: it looks at the
 * newest dead letters only, and must say so, rather than show an empty list as if the queue had none.
 */
class DevConsoleSharedDeadLettersTest extends RedisDelayTestSupport {

    @Test
    void theConsoleSaysHowManyOfTheSharedDeadLetterQueueItLookedAt() throws Exception {
        CamelContext node = startFailingConsumers("shop down",
                "redis-delay:orders?deadLetterQueue=shared.dead&maxDeliveries=1",
                "redis-delay:invoices?deadLetterQueue=shared.dead&maxDeliveries=1");
        ProducerTemplate producer = node.createProducerTemplate();
        producer.sendBodyAndHeader("redis-delay:orders", "order", RedisDelayConstants.MESSAGE_ID, "order-1");
        awaitDeadLetters(1);
        producer.sendBody("redis-delay:invoices?operation=scheduleBatch",
                IntStream.range(0, 100).mapToObj(i -> "invoice-" + i).toList());
        awaitDeadLetters(101);

        DevConsole console
                = node.getCamelContextExtension().getContextPlugin(DevConsoleResolver.class).resolveDevConsole("redis-delay");
        String text = (String) console.call(DevConsole.MediaType.TEXT);
        String orders = text.substring(text.indexOf("Queue: orders,"));
        int next = orders.indexOf("\nQueue: ");
        orders = next < 0 ? orders : orders.substring(0, next);

        // order-1 is older than the 100 newest dead letters, all of invoices: the list is empty, and says why
        assertThat(orders).doesNotContain("order-1")
                .contains("newest 100 of 101 dead letters in shared.dead");
    }

    private void awaitDeadLetters(int count) {
        await().atMost(Duration.ofSeconds(20)).until(() -> redis().getMap(key("shared.dead", "msg")).size() == count
                && redis().getMap(key("orders", "msg")).isEmpty() && redis().getMap(key("invoices", "msg")).isEmpty());
    }
}
