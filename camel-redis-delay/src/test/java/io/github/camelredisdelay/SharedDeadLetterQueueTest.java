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
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.console.DevConsole;
import org.apache.camel.console.DevConsoleResolver;
import org.junit.jupiter.api.Test;
import org.redisson.api.stream.StreamMessageId;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A dead-letter queue holds a later dead letter of an id it already holds as {@code <id>#<stream entry>}, the stream
 * entry of the delivery it came from. Stream entry ids are unique within one queue's stream only: the same id scheduled
 * onto several queues that share a dead-letter queue at once (a fan-out keyed by one business id, due at once) mostly
 * gets the same entry id {@code <ms>-0} in each. When they all failed, the first dead letter kept the id, the second
 * was stored as {@code <id>#<ms>-0}, and the third found that id taken by the second and was acknowledged away without
 * being stored anywhere, while its ERROR line said it had been moved to the dead-letter queue as that id: a lost
 * message. (In a fan-out of three queues, about one round in seven lost one this way.)
 */
class SharedDeadLetterQueueTest extends RedisDelayTestSupport {

    @Test
    void aDeadLetterWhoseIdAndStreamEntryAnotherQueuesDeadLettersAlreadyHaveIsKeptToo() throws Exception {
        String options = "?maxDeliveries=1&deadLetterQueue=notify.dead";
        CountDownLatch emailHeld = new CountDownLatch(1);
        CountDownLatch gatewayAnswers = new CountDownLatch(1);
        ProducerTemplate producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from("redis-delay:email" + options).process(e -> {
                    emailHeld.countDown();
                    gatewayAnswers.await(10, TimeUnit.SECONDS);
                    throw new IllegalStateException("email gateway down");
                });
            }
        }).createProducerTemplate();
        producer.sendBodyAndHeader("redis-delay:email", "n-1 by email", RedisDelayConstants.MESSAGE_ID, "n-1");
        assertThat(emailHeld.await(10, TimeUnit.SECONDS)).as("email delivery under way").isTrue();
        Map<StreamMessageId, Map<String, String>> inFlight = redis().<String, String>getStream(key("email", "ready"))
                .range(StreamMessageId.MIN, StreamMessageId.MAX);
        assertThat(inFlight).hasSize(1);
        String entry = inFlight.keySet().iterator().next().toString();
        // the dead letters of n-1 that queues sms and push, sharing the dead-letter queue, left there: sms's holds the
        // id, and push's, delivered from the entry of the same id in its own stream, the second place
        producer.sendBodyAndHeader("redis-delay:notify.dead", "n-1 by sms", RedisDelayConstants.MESSAGE_ID, "n-1");
        producer.sendBodyAndHeader("redis-delay:notify.dead", "n-1 by push", RedisDelayConstants.MESSAGE_ID,
                "n-1#" + entry);

        gatewayAnswers.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> redis().getMap(key("email", "msg")).isEmpty());

        Set<String> deadLetters = redis().<String, String>getMap(key("notify.dead", "msg")).readAllKeySet();
        assertThat(deadLetters).as("dead letters of n-1").hasSize(3);
        List<Object> bodies = deadLetters.stream().map(id -> producer.request(
                "redis-delay:notify.dead?operation=peek", e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, id))
                .getMessage().getBody()).toList();
        assertThat(bodies).containsExactlyInAnyOrder("n-1 by sms", "n-1 by push", "n-1 by email");

        // and a redrive by the id it is held under takes it back to its queue under its own id
        String heldAs = "n-1#" + entry + ".2";
        assertThat(deadLetters).contains(heldAs);
        Object moved = producer.requestBodyAndHeader("redis-delay:email?deadLetterQueue=notify.dead&operation=redrive&delay=1h",
                null, RedisDelayConstants.MESSAGE_ID, heldAs);
        assertThat(moved).isEqualTo(1L);
        var back = producer.request("redis-delay:email?operation=peek",
                e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, "n-1")).getMessage();
        assertThat(back.getBody()).isEqualTo("n-1 by email");
        assertThat(back.getHeader(RedisDelayConstants.STATE)).isEqualTo("scheduled");
    }

    /**
     * Under each queue that shares a dead-letter queue, the dev console lists that queue's own newest dead letters, as
     * its peek and redrive take them, not another queue's.
     */
    @Test
    void theDevConsoleListsUnderEachQueueItsOwnNewestDeadLetters() throws Exception {
        String options = "?maxDeliveries=1&deadLetterQueue=all.dead";
        CamelContext node = startFailingConsumers("shop down", "redis-delay:a" + options, "redis-delay:b" + options);
        ProducerTemplate producer = node.createProducerTemplate();
        producer.sendBodyAndHeader("redis-delay:a", "a's", RedisDelayConstants.MESSAGE_ID, "of-a");
        producer.sendBodyAndHeader("redis-delay:b", "b's", RedisDelayConstants.MESSAGE_ID, "of-b");
        await().atMost(Duration.ofSeconds(10)).until(() -> redis().getStream(key("all.dead", "ready")).size() == 2);

        DevConsole console
                = node.getCamelContextExtension().getContextPlugin(DevConsoleResolver.class).resolveDevConsole("redis-delay");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> queues
                = (List<Map<String, Object>>) ((Map<String, Object>) console.call(DevConsole.MediaType.JSON)).get("queues");

        for (String queue : List.of("a", "b")) {
            Map<String, Object> shown = queues.stream().filter(q -> queue.equals(q.get("queue"))).findFirst().orElseThrow();
            assertThat((List<?>) shown.get("newestDeadLetters")).as("dead letters listed under queue " + queue)
                    .singleElement().asString().startsWith("of-" + queue + " ");
        }
    }
}
