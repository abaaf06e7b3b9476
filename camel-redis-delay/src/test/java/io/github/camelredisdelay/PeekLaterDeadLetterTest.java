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
        ProducerTemplate producer = deadLetterR1Twice();

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
        RedisDelayEndpoint endpoint = producer.getCamelContext().getEndpoint(QUEUE, RedisDelayEndpoint.class);
        assertThat(endpoint.peekMessage("r-1")).as("JMX peekMessage of r-1").containsEntry("state", "dead");

        // as a redrive by the id finds it
        assertThat(producer.requestBodyAndHeader(QUEUE + "&operation=redrive&delay=1h", null,
                RedisDelayConstants.MESSAGE_ID, "r-1")).isEqualTo(1L);
    }

    @Test
    void aPeekFindsTheQueuesDeadLetterHeldUnderItsIdWithASuffixBesideAnotherQueuesUnderTheId() throws Exception {
        String options = "?maxDeliveries=1&deadLetterQueue=notify.dead";
        ProducerTemplate producer = startFailingConsumers("gateway down", "redis-delay:sms" + options,
                "redis-delay:email" + options).createProducerTemplate();
        producer.sendBodyAndHeader("redis-delay:sms" + options, "n-1 by sms", RedisDelayConstants.MESSAGE_ID, "n-1");
        await().atMost(Duration.ofSeconds(10)).until(() -> redis().getMap(key("notify.dead", "msg")).size() == 1);
        producer.sendBodyAndHeader("redis-delay:email" + options, "n-1 by email", RedisDelayConstants.MESSAGE_ID, "n-1");
        // and acknowledged: the move stores the dead letter first, and until the acknowledgement a peek finds email's
        // n-1 in flight
        await().atMost(Duration.ofSeconds(10)).until(() -> redis().getMap(key("notify.dead", "msg")).size() == 2
                && redis().getMap(key("email", "msg")).isEmpty());

        Message email = producer.request("redis-delay:email" + options + "&operation=peek",
                e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, "n-1")).getMessage();
        assertThat(email.getBody()).as("email's n-1").isEqualTo("n-1 by email");
        assertThat(email.getHeader(RedisDelayConstants.STATE)).isEqualTo("dead");
        assertThat(email.getHeader(RedisDelayConstants.ORIGINAL_QUEUE)).isEqualTo("email");
        Message sms = producer.request("redis-delay:sms" + options + "&operation=peek",
                e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, "n-1")).getMessage();
        assertThat(sms.getBody()).as("sms' n-1").isEqualTo("n-1 by sms");
    }

    @Test
    void aPeekReportsTheNewestOfTheDeadLettersOfAnIdOnAnyShardUnderTheIdItIsHeldUnder() throws Exception {
        String queue = "redis-delay:tasks?maxDeliveries=1&shards=4";
        // characters HSCAN's patterns would otherwise read as wildcards
        String id = "t[1]*?\\";
        CamelContext context = startFailingConsumers("worker down", queue);
        ProducerTemplate producer = context.createProducerTemplate();
        producer.sendBodyAndHeader(queue, "first run", RedisDelayConstants.MESSAGE_ID, id);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> "dead".equals(peek(producer, queue, id).getHeader(RedisDelayConstants.STATE)));
        assertThat(peek(producer, queue, id).getHeader(RedisDelayConstants.MESSAGE_ID)).isEqualTo(id);
        producer.sendBodyAndHeader(queue, "second run", RedisDelayConstants.MESSAGE_ID, id);
        await().atMost(Duration.ofSeconds(10)).until(() -> peek(producer, queue, id).getHeader(RedisDelayConstants.MESSAGE_ID,
                String.class).startsWith(id + "#"));

        Message newest = peek(producer, queue, id);
        assertThat(newest.getBody()).isEqualTo("second run");
        assertThat(newest.getHeader(RedisDelayConstants.STATE)).isEqualTo("dead");
        String heldAs = newest.getHeader(RedisDelayConstants.MESSAGE_ID, String.class);
        RedisDelayEndpoint endpoint = context.getEndpoint(queue, RedisDelayEndpoint.class);
        assertThat(endpoint.peekMessage(id)).containsEntry("id", heldAs).containsEntry("body", "second run");

        // the id it is held under names that one to a redrive, which takes it back under the message's id
        assertThat(producer.requestBodyAndHeader(queue + "&operation=redrive&delay=1h", null,
                RedisDelayConstants.MESSAGE_ID, heldAs)).isEqualTo(1L);
        Message back = peek(producer, queue, id);
        assertThat(back.getBody()).isEqualTo("second run");
        assertThat(back.getHeader(RedisDelayConstants.STATE)).isEqualTo("scheduled");
        assertThat(producer.requestBodyAndHeader(queue + "&operation=cancel", null, RedisDelayConstants.MESSAGE_ID, id))
                .isEqualTo(true);
        Message older = peek(producer, queue, id);
        assertThat(older.getBody()).isEqualTo("first run");
        assertThat(older.getHeader(RedisDelayConstants.MESSAGE_ID)).isEqualTo(id);
    }

    @Test
    void aPeekByTheIdALaterDeadLetterIsHeldUnderReportsItAsTheFirstPeekDid() throws Exception {
        ProducerTemplate producer = deadLetterR1Twice();
        String heldUnder = peek(producer).getHeader(RedisDelayConstants.MESSAGE_ID, String.class);
        assertThat(heldUnder).startsWith("r-1#");

        // the id the peek reported names that dead letter, as it does for a redrive
        Message again = peek(producer, QUEUE, heldUnder);
        assertThat(again.getHeader(RedisDelayConstants.STATE)).as("state of " + heldUnder).isEqualTo("dead");
        assertThat(again.getBody()).isEqualTo("second reminder");
        assertThat(again.getHeader(RedisDelayConstants.MESSAGE_ID)).isEqualTo(heldUnder);
        RedisDelayEndpoint endpoint = producer.getCamelContext().getEndpoint(QUEUE, RedisDelayEndpoint.class);
        assertThat(endpoint.peekMessage(heldUnder)).as("JMX peekMessage of " + heldUnder).containsEntry("state", "dead");
    }

    private static Message peek(ProducerTemplate producer, String queue, String id) {
        return producer.request(queue + "&operation=peek", e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, id))
                .getMessage();
    }

    private static Message peek(ProducerTemplate producer) {
        return peek(producer, QUEUE, "r-1");
    }

    /**
     * Dead-letters a first and a second reminder r-1, held as r-1 and {@code r-1#<stream entry>}, through a failing
     * consumer.
     */
    private ProducerTemplate deadLetterR1Twice() throws Exception {
        CamelContext context = startFailingConsumers("mail server down", QUEUE);
        ProducerTemplate producer = context.createProducerTemplate();
        producer.sendBodyAndHeader(QUEUE, "first reminder", RedisDelayConstants.MESSAGE_ID, "r-1");
        await().atMost(Duration.ofSeconds(10)).until(() -> "dead".equals(peek(producer).getHeader(RedisDelayConstants.STATE)));
        producer.sendBodyAndHeader(QUEUE, "second reminder", RedisDelayConstants.MESSAGE_ID, "r-1");
        // and acknowledged: the move stores the dead letter first, and until the acknowledgement the queue holds r-1
        // (a peek finds it in flight, a redrive of r-1 leaves the dead letter)
        await().atMost(Duration.ofSeconds(10)).until(() -> redis().getMap(key("reminders.dead", "msg")).size() == 2
                && redis().getMap(key("reminders", "msg")).isEmpty());
        return producer;
    }
}
