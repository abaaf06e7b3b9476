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

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A delivery whose exchange fails is retried on the {@code retrySchedule} with {@code CamelRedisDelayLastError}, and
 * dead-lettered after {@code maxDeliveries} with its last error (component page, "Failures, retries and the dead-letter
 * queue"). Only an exchange that a stop cut off is to be left to its lease instead. The consumer takes any failure with
 * an {@link InterruptedException} among its causes for such a cut-off, also while nothing stops: an ordinary failure of
 * the route (a client call whose own deadline interrupted it, wrapped by the library) is then not retried on schedule
 * but waits out {@code visibilityTimeout}, loses its error, and is dead-lettered as a message whose consumers "crashed,
 * hung or were too slow".
 */
@CamelSide
class InterruptedCauseRetryTest extends RedisDelayTestSupport {

    private final List<Message> attempts = new CopyOnWriteArrayList<>();
    private final List<Message> deadLetters = new CopyOnWriteArrayList<>();

    private RouteBuilder failingOnce(String uri) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from(uri).process(e -> {
                    e.getMessage().setHeader(Exchange.MESSAGE_TIMESTAMP, System.currentTimeMillis());
                    attempts.add(e.getMessage().copy());
                    if (attempts.size() == 1) {
                        // what a client library throws when its own timeout interrupted the call; nothing stops here
                        throw new IllegalStateException(
                                "payment service call cut short", new InterruptedException("deadline of 2 s reached"));
                    }
                });
                from("redis-delay:jobs.dead").process(e -> deadLetters.add(e.getMessage().copy()));
            }
        };
    }

    @Test
    void failureCausedByAnInterruptIsRetriedOnTheRetrySchedule() throws Exception {
        var producer = startContext(failingOnce("redis-delay:jobs?retrySchedule=100ms&visibilityTimeout=5s"))
                .createProducerTemplate();

        producer.sendBody("redis-delay:jobs", "job");

        await().atMost(Duration.ofSeconds(10)).until(() -> attempts.size() == 2);
        assertThat(attempts.get(1).getHeader(RedisDelayConstants.LAST_ERROR, String.class))
                .isEqualTo("java.lang.IllegalStateException: payment service call cut short; caused by "
                           + "java.lang.InterruptedException: deadline of 2 s reached");
        // retried after 100 ms, not after the 5 s lease
        assertThat(attempts.get(1).getHeader(Exchange.MESSAGE_TIMESTAMP, Long.class)
                   - attempts.get(0).getHeader(Exchange.MESSAGE_TIMESTAMP, Long.class))
                .as("ms between the failed delivery and the next").isLessThan(2_000);
    }

    @Test
    void failureCausedByAnInterruptOnTheLastDeliveryIsDeadLetteredWithItsError() throws Exception {
        var producer = startContext(failingOnce("redis-delay:jobs?maxDeliveries=1&visibilityTimeout=1s"))
                .createProducerTemplate();

        producer.sendBody("redis-delay:jobs", "job");

        await().atMost(Duration.ofSeconds(10)).until(() -> deadLetters.size() == 1);
        assertThat(deadLetters.get(0).getHeader(RedisDelayConstants.LAST_ERROR, String.class))
                .isEqualTo("java.lang.IllegalStateException: payment service call cut short; caused by "
                           + "java.lang.InterruptedException: deadline of 2 s reached");
    }
}
