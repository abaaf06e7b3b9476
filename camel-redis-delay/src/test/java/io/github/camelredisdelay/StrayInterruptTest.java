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
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A route that leaves its thread interrupted (code that catches an {@code InterruptedException} and sets the flag
 * again) must not fail the next message of the batch, which the consumer routes on the same thread: the blocking
 * consumer clears the flag after each exchange it waits for, but with {@code asyncConsumer} and with
 * {@code consumerType=polling} the next message ran with the flag set, and its first blocking call failed with an
 * {@code InterruptedException} it did not cause (a retry, a delivery counted; dead-lettered with
 * {@code maxDeliveries=1}). Nor may an interrupt from elsewhere end a reader thread that waits for messages: only a
 * stop ends its reading, and a stop ends it before it interrupts.
 */
@CamelSide
class StrayInterruptTest extends RedisDelayTestSupport {

    private final List<String> routed = new CopyOnWriteArrayList<>();
    private final List<String> interrupted = new CopyOnWriteArrayList<>();

    @ParameterizedTest
    @ValueSource(strings = {
            "asyncConsumer=false", "asyncConsumer=true", "consumerType=polling&pollInterval=100",
            "consumerType=polling&pollInterval=100&asyncConsumer=true" })
    void anInterruptTheRouteLeftOnItsThreadDoesNotFailTheNextMessageOfTheBatch(String consumer) throws Exception {
        ProducerTemplate producer = startContext().createProducerTemplate();
        for (int i = 0; i < 4; i++) {
            producer.sendBody("redis-delay:irq", "m" + i);
        }
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from("redis-delay:irq?retrySchedule=100&maxMessagesPerPoll=4&" + consumer).process(e -> {
                    String body = e.getMessage().getBody(String.class);
                    routed.add(body);
                    if (body.equals("m0")) {
                        // as code that catches an InterruptedException and sets the flag again does
                        Thread.currentThread().interrupt();
                        return;
                    }
                    try {
                        TimeUnit.MILLISECONDS.sleep(1);
                    } catch (InterruptedException ie) {
                        interrupted.add(body);
                        throw ie;
                    }
                });
            }
        });

        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(100))
                .until(() -> redis().getMap(key("irq", "msg")).isEmpty());
        assertThat(interrupted).as("messages whose step was interrupted by the flag m0's exchange left").isEmpty();
        assertThat(routed).containsExactlyInAnyOrder("m0", "m1", "m2", "m3");
    }

    @Test
    void anInterruptFromElsewhereWhileTheConsumerWaitsForMessagesDoesNotEndItsReading() throws Exception {
        ProducerTemplate producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:idle-irq").process(e -> routed.add(e.getMessage().getBody(String.class)));
            }
        }).createProducerTemplate();
        Thread reader = await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> waitingReaderOf("idle-irq"), thread -> thread != null);

        reader.interrupt();
        producer.sendBody("redis-delay:idle-irq", "after the interrupt");

        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                .until(() -> routed.contains("after the interrupt"));
    }

    /** The consumer's only reader thread of {@code queue}, once it waits (for messages, Redis idle), else null. */
    private static Thread waitingReaderOf(String queue) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().contains("RedisDelayConsumer[" + queue + "]"))
                .filter(thread -> thread.getState() == Thread.State.TIMED_WAITING)
                .findFirst().orElse(null);
    }
}
