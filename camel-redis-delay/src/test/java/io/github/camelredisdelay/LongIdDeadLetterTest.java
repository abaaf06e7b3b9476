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
import java.util.stream.Collectors;

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
 * held in the dead-letter queue as {@code <id>#<stream entry>}, longer than any id a producer accepts; one that already
 * carries such a suffix (which a replay route copies back) dead-lettered while the dead-letter queue holds that id gets
 * a second suffix. An operator must still be able to act on each by the id it is held under.
 */
class LongIdDeadLetterTest extends RedisDelayTestSupport {

    private static final String ID = "o".repeat(512);

    @Test
    void aSecondDeadLetterOfAnIdOfTheLargestLengthCanBeRedrivenByTheIdTheDeadLetterQueueHoldsItUnder() throws Exception {
        CamelContext node = failingNode();
        ProducerTemplate producer = node.createProducerTemplate();
        String suffixed = deadLetteredTwice(producer);
        node.getRouteController().stopRoute("failing");

        // the component page: a later dead letter "goes back under the id, whether the redrive names the id or that
        // stored one"
        Exchange redrive = producer.send("redis-delay:orders?operation=redrive",
                e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, suffixed));

        assertThat(redrive.getException()).isNull();
        assertThat(redrive.getMessage().getBody()).isEqualTo(1L);
    }

    @Test
    void aDeadLetterWhoseIdCarriesTwoSuffixesCanBePeekedAndRedrivenByThatId() throws Exception {
        CamelContext node = failingNode();
        ProducerTemplate producer = node.createProducerTemplate();
        String once = deadLetteredTwice(producer);

        // a replay route copies the dead letter back under the id the dead-letter queue gives it, and it fails again
        // while that dead letter still waits
        producer.sendBodyAndHeader("redis-delay:orders", "third", RedisDelayConstants.MESSAGE_ID, once);
        awaitDeadLetters(3);
        node.getRouteController().stopRoute("failing");
        String twice = deadLetterIds().stream().filter(held -> !held.equals(ID) && !held.equals(once)).findFirst()
                .orElseThrow();
        assertThat(twice).startsWith(once + "#");

        Exchange peek = producer.request("redis-delay:orders.dead?operation=peek",
                e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, twice));
        assertThat(peek.getException()).isNull();
        assertThat(peek.getMessage().getBody(String.class)).isEqualTo("third");

        Exchange redrive = producer.send("redis-delay:orders?operation=redrive",
                e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, twice));
        assertThat(redrive.getException()).isNull();
        assertThat(redrive.getMessage().getBody()).isEqualTo(1L);
        assertThat(redis().getMap(key("orders", "msg")).keySet()).containsExactly(once);
    }

    private CamelContext failingNode() throws Exception {
        return startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders?maxDeliveries=1").routeId("failing").errorHandler(noErrorHandler())
                        .throwException(new IllegalStateException("shop down"));
            }
        });
    }

    /**
     * Dead-letters {@link #ID} twice, the second time while the first dead letter waits.
     *
     * @return the id the dead-letter queue holds the second under
     */
    private String deadLetteredTwice(ProducerTemplate producer) {
        producer.sendBodyAndHeader("redis-delay:orders", "first", RedisDelayConstants.MESSAGE_ID, ID);
        // and acknowledged: the move stores the dead letter first, and until the acknowledgement the queue holds the
        // id (the second schedule of it would be a duplicate, kept out; a redrive leaves the dead letter)
        awaitDeadLetters(1);
        producer.sendBodyAndHeader("redis-delay:orders", "second", RedisDelayConstants.MESSAGE_ID, ID);
        awaitDeadLetters(2);
        String suffixed = deadLetterIds().stream().filter(held -> !held.equals(ID)).findFirst().orElseThrow();
        assertThat(suffixed).startsWith(ID + "#");
        return suffixed;
    }

    /** Waits until the dead-letter queue holds {@code count} and the queue none (each move acknowledged). */
    private void awaitDeadLetters(int count) {
        await().atMost(Duration.ofSeconds(10)).until(() -> redis().getMap(key("orders.dead", "msg")).size() == count
                && redis().getMap(key("orders", "msg")).isEmpty());
    }

    private Set<String> deadLetterIds() {
        return redis().getMap(key("orders.dead", "msg")).keySet().stream().map(String::valueOf)
                .collect(Collectors.toSet());
    }
}
