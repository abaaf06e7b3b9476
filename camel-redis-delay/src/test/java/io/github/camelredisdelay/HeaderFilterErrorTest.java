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
 * The application's {@code headerFilterStrategy} throws an {@code Error} once while the consumer fills the exchange (a
 * lookup class missing from the classpath: {@code NoClassDefFoundError}), before the message reaches the route: a
 * failed delivery like any other it throws, retried on the {@code retrySchedule}, and the consumer goes on reading.
 */
@CamelSide
class HeaderFilterErrorTest extends RedisDelayTestSupport {

    private final List<Message> delivered = new CopyOnWriteArrayList<>();

    @ParameterizedTest
    @ValueSource(strings = { "asyncConsumer=false", "asyncConsumer=true", "consumerType=polling&pollInterval=100" })
    void aFilterThrowingAnErrorOnceIsRetriedAndTheConsumerGoesOn(String consumer) throws Exception {
        AtomicInteger calls = new AtomicInteger();
        CamelContext node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs?headerFilterStrategy=#flaky&retrySchedule=50&visibilityTimeout=20s&" + consumer)
                        .process(e -> delivered.add(e.getMessage().copy()));
            }
        });
        node.getRegistry().bind("flaky", new DefaultHeaderFilterStrategy() {
            @Override
            public boolean applyFilterToExternalHeaders(String name, Object value, Exchange exchange) {
                if ("tenant".equals(name) && calls.incrementAndGet() == 1) {
                    throw new NoClassDefFoundError("io/example/tenants/TenantLookup");
                }
                return super.applyFilterToExternalHeaders(name, value, exchange);
            }
        });
        node.start();

        node.createProducerTemplate().sendBodyAndHeader("redis-delay:jobs", "job-1", "tenant", "acme");
        await("the filter's first call").atMost(Duration.ofSeconds(10)).until(() -> calls.get() > 0);
        node.createProducerTemplate().sendBodyAndHeader("redis-delay:jobs", "job-2", "tenant", "acme");

        // retrySchedule=50 ms: well within 10 s; the 20 s lease must not be what brings job-1 back
        await("job-1 retried and job-2 delivered").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                .until(() -> delivered.size() >= 2);
        assertThat(delivered).extracting(m -> m.getBody(String.class)).containsExactlyInAnyOrder("job-1", "job-2");
        assertThat(delivered).filteredOn(m -> "job-1".equals(m.getBody(String.class))).singleElement()
                .satisfies(m -> assertThat(m.getHeader(RedisDelayConstants.DELIVERY_COUNT)).isEqualTo(2));
    }
}
