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
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Message;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.support.DefaultHeaderFilterStrategy;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The component's own {@code CamelRedisDelay*} headers are never stored, whatever the header filter lets through: a
 * dead letter's {@code CamelRedisDelayLastError} and {@code CamelRedisDelayOriginalQueue} that a route forwards to
 * another queue must not come back with that queue's delivery as if it had failed there.
 */
class OwnHeadersNeverStoredTest extends RedisDelayTestSupport {

    @Test
    void theDeadLetterHeadersOfAForwardedMessageDoNotTravelWithAFilterThatKeepsCamelsHeaders() throws Exception {
        List<Message> delivered = new CopyOnWriteArrayList<>();
        CamelContext node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:b?headerFilterStrategy=#keepAll").process(e -> delivered.add(e.getMessage().copy()));
            }
        });
        // filters nothing, so Camel's own headers (CamelFileName) travel with the message
        DefaultHeaderFilterStrategy keepAll = new DefaultHeaderFilterStrategy();
        keepAll.setOutFilterStartsWith((String[]) null);
        keepAll.setInFilterStartsWith((String[]) null);
        node.getRegistry().bind("keepAll", keepAll);
        node.start();

        // what a route consuming a dead-letter queue has on its exchange when it forwards a dead letter
        node.createProducerTemplate().sendBodyAndHeaders("redis-delay:b?headerFilterStrategy=#keepAll", "order-1",
                Map.of(RedisDelayConstants.LAST_ERROR, "java.lang.IllegalStateException: failed on queue a",
                        RedisDelayConstants.ORIGINAL_QUEUE, "a", "CamelFileName", "order-1.json"));

        await().atMost(Duration.ofSeconds(10)).until(() -> delivered.size() == 1);
        assertThat(delivered.get(0).getHeaders()).containsEntry("CamelFileName", "order-1.json")
                .doesNotContainKeys(RedisDelayConstants.LAST_ERROR, RedisDelayConstants.ORIGINAL_QUEUE);
    }
}
