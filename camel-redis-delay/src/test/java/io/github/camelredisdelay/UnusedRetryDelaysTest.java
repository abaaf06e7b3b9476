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
import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.Message;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * "Retry the callback after 15s, 3m, 10m and 30m, then give up", written {@code retrySchedule=15s,3m,10m,30m} with
 * {@code maxDeliveries=4} (four tries, one might think): {@code maxDeliveries} counts the first delivery, so the
 * message goes to the dead-letter queue after its fourth delivery, the third retry, and the 30m delay is never waited.
 * Nothing said so: the user sees the callback given up on 30 minutes early. The consumer now names the delays its
 * {@code maxDeliveries} never reaches in a WARN when it is created, and says what to set.
 */
@CamelSide
class UnusedRetryDelaysTest extends RedisDelayTestSupport {

    private final List<Message> deliveries = new CopyOnWriteArrayList<>();
    private final List<Message> deadLetters = new CopyOnWriteArrayList<>();

    @Test
    void aRetryDelayMaxDeliveriesNeverReachesIsNamedInAWarningAndTheMessageIsDeadLetteredWithoutIt() throws Exception {
        try (LogLines log = LogLines.of(UnusedRetryDelays.class)) {
            ProducerTemplate producer = startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    errorHandler(noErrorHandler());
                    from("redis-delay:callbacks?retrySchedule=100ms,200ms,300ms,1h&maxDeliveries=4").process(e -> {
                        deliveries.add(e.getMessage().copy());
                        throw new IllegalStateException("HTTP 503");
                    });
                    from("redis-delay:callbacks.dead").process(e -> deadLetters.add(e.getMessage().copy()));
                }
            }).createProducerTemplate();
            producer.sendBodyAndHeader("redis-delay:callbacks", "callback", RedisDelayConstants.MESSAGE_ID, "cb-1");

            // what the queue does: three retries, then the dead-letter queue; the 1h delay is never waited
            await().atMost(Duration.ofSeconds(10)).until(() -> deadLetters.size() == 1);
            assertThat(deliveries).extracting(m -> m.getHeader(RedisDelayConstants.DELIVERY_COUNT))
                    .containsExactly(1, 2, 3, 4);
            // what the user is told about it
            assertThat(log.lines()).filteredOn(line -> line.contains("retrySchedule")).singleElement().asString()
                    .startsWith("WARN").contains("queue callbacks", "maxDeliveries=4", "1h", "never", "maxDeliveries=5");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "", "retrySchedule=100ms,200ms,300ms&maxDeliveries=4", "retrySchedule=1s,1h&maxDeliveries=0",
            "maxDeliveries=2", "retrySchedule=1s,5s&maxDeliveries=9", "retrySchedule=1s,1h&maxDeliveries=1" })
    void aScheduleEveryDelayOfWhichCanBeUsedOrTheDefaultOneIsNotWarnedAbout(String options) throws Exception {
        try (LogLines log = LogLines.of(UnusedRetryDelays.class)) {
            startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:callbacks?" + options).log("${body}");
                }
            });

            assertThat(log.lines()).filteredOn(line -> line.contains("retrySchedule")).isEmpty();
        }
    }
}
