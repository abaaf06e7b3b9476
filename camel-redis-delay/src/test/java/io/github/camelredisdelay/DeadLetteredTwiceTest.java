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

import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Message;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A dead letter whose route fails too goes on to the dead-letter queue's own dead-letter queue, named as coming from
 * the dead-letter queue (its redrive takes it back there). Redriven back to the dead-letter queue, it had lost the
 * queue it first came from and its error there: a route of that dead-letter queue logged no original queue, and the
 * redrive of any other queue sharing the dead-letter queue took it, as a message that names no queue counts as every
 * queue's.
 */
class DeadLetteredTwiceTest extends RedisDelayTestSupport {

    private static final String SHARED = "?maxDeliveries=1&deadLetterQueue=callbacks.dead";

    @Test
    void aDeadLetterRedrivenBackToTheDeadLetterQueueStillNamesTheQueueItCameFrom() throws Exception {
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from("redis-delay:callbacks" + SHARED).process(e -> {
                    throw new IllegalStateException("partner down");
                });
                from("redis-delay:callbacks.dead?maxDeliveries=1").routeId("dead-letters").process(e -> {
                    throw new IllegalStateException("ticket system down");
                });
            }
        });
        ProducerTemplate producer = context.createProducerTemplate();
        producer.sendBodyAndHeader("redis-delay:callbacks", "callback 9", RedisDelayConstants.MESSAGE_ID, "cb-9");
        await().atMost(Duration.ofSeconds(15)).until(() -> "dead".equals(
                peek(producer, "callbacks.dead", "cb-9").getHeader(RedisDelayConstants.STATE)));
        context.getRouteController().stopRoute("dead-letters");

        assertThat(producer.requestBodyAndHeader("redis-delay:callbacks.dead?operation=redrive", null,
                RedisDelayConstants.MESSAGE_ID, "cb-9")).as("moved back to callbacks.dead").isEqualTo(1L);
        await().atMost(Duration.ofSeconds(10)).until(() -> "ready".equals(
                peek(producer, "callbacks.dead?deadLetterQueue=callbacks.dead.dead", "cb-9")
                        .getHeader(RedisDelayConstants.STATE)));

        Message back = peek(producer, "callbacks.dead?deadLetterQueue=callbacks.dead.dead", "cb-9");
        assertThat(back.getHeader(RedisDelayConstants.ORIGINAL_QUEUE)).as("queue the dead letter came from")
                .isEqualTo("callbacks");
        assertThat(back.getHeader(RedisDelayConstants.LAST_ERROR)).as("its last error there")
                .isEqualTo("java.lang.IllegalStateException: partner down");
        // queue webhooks shares the dead-letter queue and never held cb-9
        assertThat(producer.requestBodyAndHeader("redis-delay:webhooks" + SHARED + "&operation=redrive", null,
                RedisDelayConstants.MESSAGE_ID, "cb-9")).as("moved to webhooks").isEqualTo(0L);
        assertThat(peek(producer, "webhooks" + SHARED, "cb-9").getBody()).as("webhooks' cb-9").isNull();
    }

    private static Message peek(ProducerTemplate producer, String endpoint, String id) {
        String uri = "redis-delay:" + endpoint + (endpoint.contains("?") ? "&" : "?") + "operation=peek";
        return producer.request(uri, e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, id)).getMessage();
    }
}
