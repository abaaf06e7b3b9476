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
import java.util.concurrent.atomic.AtomicInteger;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.support.DefaultHeaderFilterStrategy;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * CHANGELOG: "the headerFilterStrategy throwing ... is now a failed delivery (retried, then dead-lettered)". A filter
 * that fails once (a lookup it makes, say) with an {@link IllegalArgumentException} (a {@code NumberFormatException}
 * included) is taken for an unreadable stored message instead: dead-lettered at once as "unreadable message", its
 * retries and {@code maxDeliveries} skipped, although the stored message is fine and the next delivery would succeed.
 */
@CamelSide
class HeaderFilterIllegalArgumentTest extends RedisDelayTestSupport {

    private final List<Message> delivered = new CopyOnWriteArrayList<>();
    private final List<Message> deadLetters = new CopyOnWriteArrayList<>();

    @ParameterizedTest
    @ValueSource(strings = { "IllegalStateException", "NumberFormatException" })
    void aFilterFailingOnceIsRetriedWhateverItsExceptionType(String type) throws Exception {
        AtomicInteger calls = new AtomicInteger();
        CamelContext node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs?headerFilterStrategy=#flaky&retrySchedule=50&maxDeliveries=3")
                        .process(e -> delivered.add(e.getMessage().copy()));
                from("redis-delay:jobs.dead").process(e -> deadLetters.add(e.getMessage().copy()));
            }
        });
        node.getRegistry().bind("flaky", new DefaultHeaderFilterStrategy() {
            @Override
            public boolean applyFilterToExternalHeaders(String name, Object value, Exchange exchange) {
                if ("tenant".equals(name) && calls.incrementAndGet() == 1) {
                    throw type.equals("IllegalStateException")
                            ? new IllegalStateException("tenant lookup failed")
                            : new NumberFormatException("For input string: \"\"");
                }
                return super.applyFilterToExternalHeaders(name, value, exchange);
            }
        });
        node.start();

        node.createProducerTemplate().sendBodyAndHeader("redis-delay:jobs", "job", "tenant", "acme");

        await().atMost(Duration.ofSeconds(10)).until(() -> delivered.size() + deadLetters.size() == 1);
        assertThat(deadLetters).as("dead letters, last error %s",
                deadLetters.isEmpty() ? null : deadLetters.get(0).getHeader(RedisDelayConstants.LAST_ERROR)).isEmpty();
        assertThat(delivered).singleElement().satisfies(m -> {
            assertThat(m.getHeader(RedisDelayConstants.DELIVERY_COUNT)).isEqualTo(2);
            assertThat(m.getHeader("tenant")).isEqualTo("acme");
        });
    }
}
