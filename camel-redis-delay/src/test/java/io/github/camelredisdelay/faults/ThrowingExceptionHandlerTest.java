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
package io.github.camelredisdelay.faults;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import io.github.camelredisdelay.ConsumerType;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.test.CamelSide;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.spi.ExceptionHandler;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An application's {@code exceptionHandler} that itself fails (it forwards to an alerting client that is down, say)
 * when a consumer reports that it cannot fetch: the consumer goes on reading once Redis is back, whatever the handler
 * threw, rather than reading nothing more while its route looks started.
 */
@CamelSide
class ThrowingExceptionHandlerTest extends FaultTestSupport {

    @ParameterizedTest(name = "{0}, handler throws {1}")
    @CsvSource({ "blocking, runtime", "blocking, error", "polling, runtime", "polling, error" })
    void aConsumerWhoseExceptionHandlerThrowsReadsAgainOnceRedisIsBack(ConsumerType type, String thrown) throws Exception {
        AtomicInteger handled = new AtomicInteger();
        Supplier<Throwable> failure = "error".equals(thrown)
                ? () -> new NoClassDefFoundError("io/example/alerting/AlertClient")
                : () -> new IllegalStateException("alerting client is down");
        List<String> received = new CopyOnWriteArrayList<>();
        CamelContext node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:alerted?exceptionHandler=#alerts&pollInterval=200&consumerType=" + type)
                        .process(exchange -> received.add(exchange.getMessage().getBody(String.class)));
            }
        });
        node.getRegistry().bind("alerts", new ThrowingHandler(handled, failure));
        node.start();
        RedisServerProcess redisServer = redisProcess();

        redisServer.stop();
        await("the outage reaches the exception handler").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100)).until(() -> handled.get() > 0);
        redisServer.restart();

        ProducerTemplate producer = node.createProducerTemplate();
        await("a schedule once Redis is back").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .ignoreExceptions().until(() -> {
                    producer.sendBody("redis-delay:alerted", "after the outage");
                    return true;
                });
        await("delivery once Redis is back").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> received.contains("after the outage"));
        assertThat(received).containsExactly("after the outage");
    }

    /**
     * A route step throws an {@code Error} past Camel's error handling (a poison message's {@code StackOverflowError}),
     * which the consumer reports to its {@code exceptionHandler}, and that handler fails too: the message is retried on
     * its {@code retrySchedule} all the same, and the consumer delivers the next one.
     */
    @ParameterizedTest
    @ValueSource(strings = { "asyncConsumer=false", "asyncConsumer=true", "consumerType=polling&pollInterval=100" })
    void aMessageWhoseRouteThrowsAnErrorIsRetriedWhenTheExceptionHandlerThrowsToo(String consumer) throws Exception {
        AtomicInteger handled = new AtomicInteger();
        List<String> received = new CopyOnWriteArrayList<>();
        CamelContext node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:poisoned?exceptionHandler=#alerts&retrySchedule=50&visibilityTimeout=20s&" + consumer)
                        .process(exchange -> received.add(exchange.getMessage().getBody(String.class)))
                        .process(exchange -> {
                            if (received.size() == 1) {
                                throw new StackOverflowError("poison");
                            }
                        });
            }
        });
        node.getRegistry().bind("alerts",
                new ThrowingHandler(handled, () -> new IllegalStateException("alerting client is down")));
        node.start();
        ProducerTemplate producer = node.createProducerTemplate();

        producer.sendBody("redis-delay:poisoned", "job-1");
        await("the failure reaches the exception handler").atMost(Duration.ofSeconds(10))
                .until(() -> handled.get() > 0);
        producer.sendBody("redis-delay:poisoned", "job-2");

        // retrySchedule=50 ms: well within 10 s; the 20 s lease must not be what brings job-1 back
        await("job-1 retried and job-2 delivered").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                .until(() -> received.size() >= 3);
        assertThat(received).containsExactlyInAnyOrder("job-1", "job-1", "job-2");
    }

    /** Counts the failures it is told of, and fails each time, as a handler that forwards to a broken client would. */
    private record ThrowingHandler(AtomicInteger handled, Supplier<Throwable> failure) implements ExceptionHandler {

        @Override
        public void handleException(Throwable exception) {
            handleException(null, null, exception);
        }

        @Override
        public void handleException(String message, Throwable exception) {
            handleException(message, null, exception);
        }

        @Override
        public void handleException(String message, Exchange exchange, Throwable exception) {
            handled.incrementAndGet();
            Throwable thrown = failure.get();
            if (thrown instanceof Error error) {
                throw error;
            }
            throw (RuntimeException) thrown;
        }
    }
}
