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
package io.github.camelredisdelay.test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.github.camelredisdelay.CountedNow;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A consumer route of one queue that holds the message {@code first} until {@link #release()}, so a test can change
 * what Redis answers while that message is in flight, and a consumer of the queue's dead-letter queue; both record the
 * bodies they get.
 */
public final class HeldFirstMessage extends RouteBuilder {

    private static final String FIRST = "first";

    private final String queue;
    private final String options;
    private final CountDownLatch held = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);
    private final List<String> routed = new CopyOnWriteArrayList<>();
    private final List<String> deadLettered = new CopyOnWriteArrayList<>();

    /** @param options the consumer's endpoint options, e.g. {@code maxDeliveries=1} */
    public HeldFirstMessage(String queue, String options) {
        this.queue = queue;
        this.options = options;
    }

    @Override
    public void configure() {
        from("redis-delay:" + queue + "?" + options).process(exchange -> {
            String body = exchange.getMessage().getBody(String.class);
            routed.add(body);
            if (body.equals(FIRST)) {
                held.countDown();
                released.await(30, TimeUnit.SECONDS);
            }
        });
        from("redis-delay:" + queue + ".dead")
                .process(exchange -> deadLettered.add(exchange.getMessage().getBody(String.class)));
    }

    /** Schedules {@code first} and waits until the route holds it. */
    public void sendFirstAndWaitUntilHeld(ProducerTemplate producer) throws InterruptedException {
        producer.sendBody("redis-delay:" + queue, FIRST);
        assertThat(held.await(10, TimeUnit.SECONDS)).as("the route holds the first message").isTrue();
    }

    /** Lets the route finish {@code first}. */
    public void release() {
        released.countDown();
    }

    /** The bodies the route got, in order. */
    public List<String> routed() {
        return routed;
    }

    /**
     * Waits until the queue and its dead-letter queue hold no message any more (counted in Redis now, not the
     * {@code stats} operation's snapshot, which is refreshed at most every 2 s), then checks that none went to the
     * dead-letter queue and that the route got {@code first} and each of {@code next} once.
     */
    public void assertEachRoutedOnceAndNoneDeadLettered(ProducerTemplate producer, List<String> next, Duration within) {
        await().atMost(within).ignoreExceptions().untilAsserted(() -> assertThat(Stream.of(queue, queue + ".dead")
                .map(name -> CountedNow.queue(producer.getCamelContext(), "redis-delay:" + name)))
                .as("scheduled, ready and in flight in the queue and its dead-letter queue")
                .allSatisfy(counts -> assertThat(List.of(counts.scheduled(), counts.ready(), counts.inFlight()))
                        .containsOnly(0L)));
        assertThat(deadLettered).as("dead-lettered without being processed").isEmpty();
        assertThat(routed).containsExactlyInAnyOrderElementsOf(Stream.concat(Stream.of(FIRST), next.stream()).toList());
    }
}
