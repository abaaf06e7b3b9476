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
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Message;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.support.DefaultHeaderFilterStrategy;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * An endpoint the application looks up and sets up in code before the context starts it
 * ({@code context.getEndpoint(uri, RedisDelayEndpoint.class)}, or {@code endpoint(uri, ...)} in a RouteBuilder): Camel
 * has initialised it already, and what is set on it then counts as much as the URI's options.
 */
@CamelSide
class EndpointSetUpInCodeTest extends RedisDelayTestSupport {

    private final List<Message> delivered = new CopyOnWriteArrayList<>();

    @Test
    void aHeaderFilterStrategySetOnALookedUpEndpointDecidesWhatIsStored() throws Exception {
        CamelContext context = createContext();
        RedisDelayEndpoint endpoint = context.getEndpoint("redis-delay:orders", RedisDelayEndpoint.class);
        DefaultHeaderFilterStrategy filter = new DefaultHeaderFilterStrategy();
        filter.setOutFilterStartsWith(DefaultHeaderFilterStrategy.CAMEL_FILTER_STARTS_WITH);
        filter.setOutFilter(Set.of("password"));
        endpoint.setHeaderFilterStrategy(filter);
        context.start();

        context.createProducerTemplate().sendBodyAndHeaders(endpoint, "order", Map.of("password", "s3cret", "customer", "c-1"));

        Message stored = endpoint.getExchanges().get(0).getMessage();
        assertThat(stored.getHeader("customer")).isEqualTo("c-1");
        assertThat(stored.getHeaders()).doesNotContainKey("password");
    }

    @Test
    void aRetryScheduleSetOnALookedUpEndpointIsUsed() throws Exception {
        CamelContext context = createContext();
        RedisDelayEndpoint endpoint = context.getEndpoint("redis-delay:orders", RedisDelayEndpoint.class);
        endpoint.getConfiguration().setRetrySchedule("1h");
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from(endpoint).process(e -> {
                    delivered.add(e.getMessage().copy());
                    throw new IllegalStateException("down");
                });
            }
        });
        context.start();
        ProducerTemplate producer = context.createProducerTemplate();
        producer.sendBodyAndHeader("redis-delay:orders", "order", RedisDelayConstants.MESSAGE_ID, "o-1");
        await().atMost(Duration.ofSeconds(10)).until(() -> !delivered.isEmpty());

        // the failed delivery is scheduled again after the retry schedule's first delay: an hour
        await().atMost(Duration.ofSeconds(10))
                .until(() -> "scheduled".equals(peek(producer).getHeader(RedisDelayConstants.STATE)));
        long dueIn = peek(producer).getHeader(RedisDelayConstants.SCHEDULED_FOR, Long.class) - System.currentTimeMillis();
        assertThat(dueIn).as("ms until the retry").isGreaterThan(Duration.ofMinutes(30).toMillis());
    }

    private static Message peek(ProducerTemplate producer) {
        return producer.request("redis-delay:orders?operation=peek",
                e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, "o-1")).getMessage();
    }

    @Test
    void aBadOptionSetOnALookedUpEndpointFailsItsStartNamingTheOption() throws Exception {
        CamelContext context = createContext();
        RedisDelayEndpoint endpoint = context.getEndpoint("redis-delay:orders", RedisDelayEndpoint.class);
        endpoint.getConfiguration().setVisibilityTimeout(5);
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(endpoint).log("${body}");
            }
        });

        assertThatThrownBy(context::start).hasStackTraceContaining("visibilityTimeout");
    }
}
