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
import java.util.concurrent.atomic.AtomicLong;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.spi.ExceptionHandler;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A message id may hold any character, and often comes from untrusted input: the component's log lines show it (and
 * other text a message brings, such as a header name) with line breaks and other control characters as visible escapes,
 * so no id can forge a log line, while the id stored and delivered stays as sent.
 */
@CamelSide
class LogForgingTest extends RedisDelayTestSupport {

    /** An id that, written raw, would end the log line and start a forged one. */
    private static final String FORGING_ID = "order-1\n2026-11-28 ERROR [main] fake line\r\tx\u2028y\u0007";
    private static final String ESCAPED_ID = "order-1\\n2026-11-28 ERROR [main] fake line\\r\\tx\\u2028y\\u0007";

    private final List<String> deliveredIds = new CopyOnWriteArrayList<>();
    private final List<String> mdcIds = new CopyOnWriteArrayList<>();

    private static void assertNoLineBreaks(List<String> lines) {
        assertThat(lines).isNotEmpty().allSatisfy(line -> assertThat(line).doesNotContain("\n", "\r", "\u2028", "\u0007"));
    }

    @Test
    void retryAndDeadLetterLinesShowAForgingIdEscapedAndTheDeliveryKeepsItAsSent() throws Exception {
        try (LogLines log = LogLines.of(Settlement.class)) {
            CamelContext node = startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    errorHandler(noErrorHandler());
                    from("redis-delay:orders?retrySchedule=50&maxDeliveries=2").process(e -> {
                        deliveredIds.add(e.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID, String.class));
                        throw new IllegalStateException("refused\nforged line");
                    });
                }
            });
            node.createProducerTemplate().sendBodyAndHeader("redis-delay:orders", "o-1", RedisDelayConstants.MESSAGE_ID,
                    FORGING_ID);

            await().atMost(Duration.ofSeconds(10)).until(() -> log.lines().stream().anyMatch(l -> l.startsWith("ERROR")));
            assertThat(deliveredIds).containsExactly(FORGING_ID, FORGING_ID);
            assertNoLineBreaks(log.lines());
            assertThat(log.lines()).anySatisfy(line -> assertThat(line).startsWith("WARN").contains(ESCAPED_ID))
                    .anySatisfy(line -> assertThat(line).startsWith("ERROR").contains(ESCAPED_ID, "refused\\nforged line"));
        }
    }

    @Test
    void theWarningAboutAnUnstoredHeaderShowsItsNameEscaped() throws Exception {
        CamelContext node = startContext();
        try (LogLines log = LogLines.of(MessageMapper.class)) {
            node.createProducerTemplate().sendBodyAndHeader("redis-delay:orders?delay=1h", "o-1", "attempts\nFAKE",
                    new AtomicLong(3));

            assertNoLineBreaks(log.lines());
            assertThat(log.lines()).singleElement().asString().contains("Header attempts\\nFAKE");
        }
    }

    @Test
    void theFanOutWarningShowsTheIdEscaped() throws Exception {
        try (LogLines log = LogLines.of(RedisDelayProducer.class)) {
            CamelContext node = startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from("direct:orders").split(body().tokenize(",")).to("redis-delay:items?delay=1h");
                }
            });
            node.createProducerTemplate().sendBodyAndHeader("direct:orders", "a,b", RedisDelayConstants.MESSAGE_ID,
                    FORGING_ID);

            assertNoLineBreaks(log.lines());
            assertThat(log.lines()).singleElement().asString().contains("Message " + ESCAPED_ID + " on queue items");
        }
        assertThat(redis().getMap(key("items", "msg")).keySet()).containsExactly(FORGING_ID);
    }

    /**
     * A route throws an {@code Error} past Camel's error handling whose message holds a line break (the message's id,
     * say), and the consumer's {@code exceptionHandler} fails when told of it: the component's WARN about the failed
     * handler shows the route's error escaped too.
     */
    @Test
    void theWarningAboutAFailedExceptionHandlerShowsTheRoutesErrorEscaped() throws Exception {
        try (LogLines log = LogLines.of(ExceptionHandlerCall.class)) {
            CamelContext node = createContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:orders?exceptionHandler=#failing&retrySchedule=1h").process(e -> {
                        throw new StackOverflowError("poison " + e.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID));
                    });
                }
            });
            node.getRegistry().bind("failing", new FailingHandler());
            node.start();
            node.createProducerTemplate().sendBodyAndHeader("redis-delay:orders", "o-1", RedisDelayConstants.MESSAGE_ID,
                    FORGING_ID);

            await().atMost(Duration.ofSeconds(10)).until(() -> !log.lines().isEmpty());
            assertNoLineBreaks(log.lines());
            assertThat(log.lines()).singleElement().asString().contains("poison " + ESCAPED_ID);
        }
    }

    /** An exception handler that fails whenever it is told of an error (it forwards to a client that is down). */
    private static final class FailingHandler implements ExceptionHandler {

        @Override
        public void handleException(Throwable exception) {
            throw new IllegalStateException("alerting client is down");
        }

        @Override
        public void handleException(String message, Throwable exception) {
            handleException(exception);
        }

        @Override
        public void handleException(String message, Exchange exchange, Throwable exception) {
            handleException(exception);
        }
    }

    @Test
    @SuppressWarnings("deprecation") // useMDCLogging: deprecated since Camel 4.19 (camel-mdc)
    void theDeliverysMdcHoldsTheIdEscaped() throws Exception {
        CamelContext node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders").process(e -> {
                    deliveredIds.add(e.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID, String.class));
                    mdcIds.add(MDC.get(RedisDelayConstants.MDC_MESSAGE_ID));
                });
            }
        });
        node.setUseMDCLogging(true);
        node.start();
        node.createProducerTemplate().sendBodyAndHeader("redis-delay:orders", "o-1", RedisDelayConstants.MESSAGE_ID,
                FORGING_ID);

        await().atMost(Duration.ofSeconds(10)).until(() -> mdcIds.size() == 1);
        assertThat(deliveredIds).containsExactly(FORGING_ID);
        assertThat(mdcIds).containsExactly(ESCAPED_ID);
    }
}
