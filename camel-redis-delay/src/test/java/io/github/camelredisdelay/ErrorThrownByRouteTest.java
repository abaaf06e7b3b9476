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
import org.apache.camel.Message;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.model.RouteDefinition;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An {@code Error} thrown by a route step (a poison message's {@code StackOverflowError}, a bean's
 * {@code NoClassDefFoundError}) escapes Camel's error handler, and the consumer catches it. The CHANGELOG says such a
 * delivery is "settled as failed (retried on the retrySchedule, dead-lettered after maxDeliveries), with the
 * asynchronous and polling consumers too". Instead it is left to its lease: it comes back only after
 * {@code visibilityTimeout} (30 s by default), without {@code CamelRedisDelayLastError}, counted as a lease that
 * expired (a crash), whatever {@code retrySchedule} says.
 */
class ErrorThrownByRouteTest extends RedisDelayTestSupport {

    private final List<Message> deliveries = new CopyOnWriteArrayList<>();

    /** The route records each delivery and throws a poison message's {@code StackOverflowError} on the first. */
    private void throwAnErrorOnTheFirstDelivery(RouteDefinition route) {
        route.process(e -> deliveries.add(e.getMessage().copy())).process(e -> {
            if (deliveries.size() == 1) {
                throw new StackOverflowError("poison");
            }
        });
    }

    @ParameterizedTest
    @ValueSource(strings = { "asyncConsumer=false", "asyncConsumer=true", "consumerType=polling&pollInterval=100" })
    void anErrorThrownByTheRouteIsRetriedOnTheRetryScheduleWithItsLastError(String consumer) throws Exception {
        ProducerTemplate producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                throwAnErrorOnTheFirstDelivery(from("redis-delay:jobs?retrySchedule=50&visibilityTimeout=20s&" + consumer));
            }
        }).createProducerTemplate();

        producer.sendBodyAndHeader("redis-delay:jobs", "job-1", RedisDelayConstants.MESSAGE_ID, "job-1");

        await().atMost(Duration.ofSeconds(10)).until(() -> deliveries.size() >= 1);
        // retrySchedule=50 ms: well within 5 s; the 20 s lease must not be what brings it back
        await("job-1 retried on its retrySchedule").atMost(Duration.ofSeconds(5)).until(() -> deliveries.size() >= 2);
        assertThat(deliveries.get(1).getHeader(RedisDelayConstants.DELIVERY_COUNT)).isEqualTo(2);
        assertThat(deliveries.get(1).getHeader(RedisDelayConstants.LAST_ERROR)).asString()
                .contains("StackOverflowError").contains("poison");
    }

    /**
     * With {@code bridgeErrorHandler=true} (meant for failures before a message exists, which the consumer bridges to
     * the route's error handler), an {@code Error} thrown by the route is the message's failure all the same: retried
     * by the queue, not routed once more through the route's error handler with a text in place of its body.
     */
    @ParameterizedTest
    @ValueSource(strings = { "asyncConsumer=false", "asyncConsumer=true", "consumerType=polling&pollInterval=100" })
    void anErrorThrownByTheRouteIsNotBridgedToTheRoutesErrorHandler(String consumer) throws Exception {
        List<Message> deadLettered = new CopyOnWriteArrayList<>();
        ProducerTemplate producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(deadLetterChannel("direct:dead"));
                from("direct:dead").process(e -> deadLettered.add(e.getMessage().copy()));
                throwAnErrorOnTheFirstDelivery(
                        from("redis-delay:jobs?bridgeErrorHandler=true&retrySchedule=50&visibilityTimeout=20s&" + consumer));
            }
        }).createProducerTemplate();

        producer.sendBodyAndHeader("redis-delay:jobs", "job-1", RedisDelayConstants.MESSAGE_ID, "job-1");

        await("job-1 retried on its retrySchedule").atMost(Duration.ofSeconds(5)).until(() -> deliveries.size() >= 2);
        await().atMost(Duration.ofSeconds(5)).until(() -> redis().getMap(key("jobs", "msg")).isEmpty());
        assertThat(deliveries).extracting(Message::getBody).containsExactly("job-1", "job-1");
        assertThat(deadLettered).as("exchanges the route's dead letter channel got").isEmpty();
    }
}
