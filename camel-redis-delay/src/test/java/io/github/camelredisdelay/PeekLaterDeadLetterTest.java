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
 * A later dead letter of an id is held as {@code <id>#<stream entry>} while the dead-letter queue holds another one
 * under the id. Once that one left (redriven, say), the dead-letter queue held the message only under the suffixed id,
 * and a peek of the id through its queue answered that no such message exists (null body, no state), although a redrive
 * by the same id found and moved it.
 */
class PeekLaterDeadLetterTest extends RedisDelayTestSupport {

    private static final String QUEUE = "redis-delay:reminders?maxDeliveries=1";

    @Test
    void aPeekFindsTheQueuesDeadLetterHeldUnderItsIdWithASuffix() throws Exception {
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from(QUEUE).process(e -> {
                    throw new IllegalStateException("mail server down");
                });
            }
        });
        ProducerTemplate producer = context.createProducerTemplate();
        producer.sendBodyAndHeader(QUEUE, "first reminder", RedisDelayConstants.MESSAGE_ID, "r-1");
        await().atMost(Duration.ofSeconds(10)).until(() -> "dead".equals(peek(producer).getHeader(RedisDelayConstants.STATE)));
        producer.sendBodyAndHeader(QUEUE, "second reminder", RedisDelayConstants.MESSAGE_ID, "r-1");
        await().atMost(Duration.ofSeconds(10)).until(() -> redis().getMap(key("reminders.dead", "msg")).size() == 2);

        // the first dead letter, held under the id, goes back to the queue (for later) and is cancelled there
        assertThat(producer.requestBodyAndHeader(QUEUE + "&operation=redrive&delay=1h", null,
                RedisDelayConstants.MESSAGE_ID, "r-1")).isEqualTo(1L);
        assertThat(producer.requestBodyAndHeader(QUEUE + "&operation=cancel", null, RedisDelayConstants.MESSAGE_ID, "r-1"))
                .isEqualTo(true);
        assertThat(redis().<String, Object>getMap(key("reminders.dead", "msg")).readAllKeySet())
                .as("the second dead letter, under its suffixed id").singleElement().asString().startsWith("r-1#");

        Message peeked = peek(producer);
        assertThat(peeked.getHeader(RedisDelayConstants.STATE)).as("state of r-1").isEqualTo("dead");
        assertThat(peeked.getBody()).isEqualTo("second reminder");
        assertThat(peeked.getHeader(RedisDelayConstants.QUEUE)).isEqualTo("reminders.dead");
        RedisDelayEndpoint endpoint = context.getEndpoint(QUEUE, RedisDelayEndpoint.class);
        assertThat(endpoint.peekMessage("r-1")).as("JMX peekMessage of r-1").containsEntry("state", "dead");

        // as a redrive by the id finds it
        assertThat(producer.requestBodyAndHeader(QUEUE + "&operation=redrive&delay=1h", null,
                RedisDelayConstants.MESSAGE_ID, "r-1")).isEqualTo(1L);
    }

    @Test
    void aPeekFindsTheQueuesDeadLetterHeldUnderItsIdWithASuffixBesideAnotherQueuesUnderTheId() throws Exception {
        String options = "?maxDeliveries=1&deadLetterQueue=notify.dead";
        ProducerTemplate producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from("redis-delay:sms" + options).process(e -> {
                    throw new IllegalStateException("sms gateway down");
                });
                from("redis-delay:email" + options).process(e -> {
                    throw new IllegalStateException("mail server down");
                });
            }
        }).createProducerTemplate();
        producer.sendBodyAndHeader("redis-delay:sms" + options, "n-1 by sms", RedisDelayConstants.MESSAGE_ID, "n-1");
        await().atMost(Duration.ofSeconds(10)).until(() -> redis().getMap(key("notify.dead", "msg")).size() == 1);
        producer.sendBodyAndHeader("redis-delay:email" + options, "n-1 by email", RedisDelayConstants.MESSAGE_ID, "n-1");
        await().atMost(Duration.ofSeconds(10)).until(() -> redis().getMap(key("notify.dead", "msg")).size() == 2);

        Message email = producer.request("redis-delay:email" + options + "&operation=peek",
                e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, "n-1")).getMessage();
        assertThat(email.getBody()).as("email's n-1").isEqualTo("n-1 by email");
        assertThat(email.getHeader(RedisDelayConstants.STATE)).isEqualTo("dead");
        assertThat(email.getHeader(RedisDelayConstants.ORIGINAL_QUEUE)).isEqualTo("email");
        Message sms = producer.request("redis-delay:sms" + options + "&operation=peek",
                e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, "n-1")).getMessage();
        assertThat(sms.getBody()).as("sms' n-1").isEqualTo("n-1 by sms");
    }

    private static Message peek(ProducerTemplate producer) {
        return producer.request(QUEUE + "&operation=peek",
                e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, "r-1")).getMessage();
    }
}
