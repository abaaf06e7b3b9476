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

import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.awaitility.Awaitility.await;

/**
 * A queue name may have 200 characters, and its dead-letter queue defaults to the name plus {@code .dead}, "an ordinary
 * queue you consume like any other". For a name of 196 to 200 characters that default is 201 to 205 characters long,
 * which no endpoint accepts: the consumer dead-letters into a queue that no route can consume or purge, without a word
 * at its start.
 */
class LongQueueNameDeadLetterTest extends RedisDelayTestSupport {

    private static final String QUEUE = "q".repeat(200);

    @Test
    void theDefaultDeadLetterQueueOfAQueueWithTheLongestAllowedNameCanBeConsumed() throws Exception {
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from("redis-delay:" + QUEUE + "?maxDeliveries=1").process(e -> {
                    throw new IllegalStateException("refused");
                });
            }
        });

        node.createProducerTemplate().sendBody("redis-delay:" + QUEUE, "job");

        await().atMost(Duration.ofSeconds(10)).until(() -> ((Number) node.createProducerTemplate()
                .requestBody("redis-delay:" + QUEUE + "?operation=stats", null, Map.class).get("deadLettered"))
                .longValue() == 1);
        // the dead letter is in "<queue>.dead", 205 characters: found, the endpoint a dead-letter route needs is refused
        // ("... is 205 characters long; at most 200 are allowed")
        assertThatCode(() -> node.getEndpoint("redis-delay:" + QUEUE + ".dead")).doesNotThrowAnyException();
    }
}
