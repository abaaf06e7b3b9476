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
import java.util.Map;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * JMX {@code peekMessage(id)} of a dead letter should show the message's headers as {@code operation=peek} and the
 * dead-letter queue's consumer see them; it shows the component's internal note of the delivery the dead letter was
 * copied from ({@code CamelRedisDelayDeadLetterOf}: the source stream key, stream entry, version), which is "never
 * given to a route".
 */
@CamelSide
class JmxPeekDeadLetterTest extends RedisDelayTestSupport {

    @Test
    void peekMessageOfADeadLetterShowsTheHeadersAPeekShows() throws Exception {
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from("redis-delay:jobs?maxDeliveries=1").process(e -> {
                    throw new IllegalStateException("shop down");
                });
            }
        });
        var producer = node.createProducerTemplate();
        producer.sendBodyAndHeaders("redis-delay:jobs", "job",
                Map.of(RedisDelayConstants.MESSAGE_ID, "job-1", "tenant", "acme"));
        RedisDelayEndpoint endpoint = node.getEndpoint("redis-delay:jobs", RedisDelayEndpoint.class);
        await().atMost(Duration.ofSeconds(10)).until(() -> "dead".equals(endpoint.peekMessage("job-1").get("state")));

        @SuppressWarnings("unchecked")
        Map<String, Object> shown = (Map<String, Object>) endpoint.peekMessage("job-1").get("headers");
        Map<String, Object> peeked = producer.request("redis-delay:jobs?operation=peek",
                e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, "job-1")).getMessage().getHeaders();

        assertThat(peeked).doesNotContainKey("CamelRedisDelayDeadLetterOf");
        assertThat(shown).containsEntry("tenant", "acme").doesNotContainKey("CamelRedisDelayDeadLetterOf");
    }
}
