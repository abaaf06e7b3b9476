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
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A queue name may have 200 characters, and its dead-letter queue defaults to the name plus {@code .dead}, "an ordinary
 * queue you consume like any other". For a name of 196 to 200 characters that default would be 201 to 205 characters
 * long, which no route can consume: such a consumer is refused at start, naming the way out.
 */
class LongQueueNameDeadLetterTest extends RedisDelayTestSupport {

    private static final String QUEUE = "q".repeat(200);

    private final List<String> deadLettered = new CopyOnWriteArrayList<>();

    @Test
    void aConsumerWhoseDefaultDeadLetterQueueNameWouldBeTooLongIsRefusedAtStart() {
        assertThatThrownBy(() -> startContext(failingConsumer("redis-delay:" + QUEUE + "?maxDeliveries=1")))
                .hasStackTraceContaining("would be 205").hasStackTraceContaining("Name a deadLetterQueue");
    }

    @Test
    void aConsumerOfTheLongestQueueNameThatNamesItsDeadLetterQueueDeadLettersWhereARouteConsumes() throws Exception {
        CamelContext node = startContext(failingConsumer("redis-delay:" + QUEUE + "?maxDeliveries=1&deadLetterQueue=long.dead"),
                new RouteBuilder() {
                    @Override
                    public void configure() {
                        from("redis-delay:long.dead").process(e -> deadLettered.add(e.getMessage().getBody(String.class)));
                    }
                });

        node.createProducerTemplate().sendBody("redis-delay:" + QUEUE, "job");

        await().atMost(Duration.ofSeconds(10)).until(() -> deadLettered.equals(List.of("job")));
    }

    private static RouteBuilder failingConsumer(String uri) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from(uri).process(e -> {
                    throw new IllegalStateException("refused");
                });
            }
        };
    }
}
