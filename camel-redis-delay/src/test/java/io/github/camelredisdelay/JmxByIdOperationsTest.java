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
import java.util.stream.Stream;

import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The JMX operations that name a message, {@code peekMessage(id)} and {@code redriveDeadLetter(id)} (Hawtio's buttons),
 * should refuse an id no message can have as {@code operation=peek} and {@code operation=redrive} do, naming the
 * operation, the queue and what is allowed. A missing id (null) failed with a bare NullPointerException ("Cannot invoke
 * String.hashCode() because messageId is null") on a sharded queue; an empty id, what a form left blank sends, made
 * {@code redriveDeadLetter} read the whole dead-letter queue one script call per dead letter to answer 0, and
 * {@code peekMessage} answer as if the queues merely held no such message; so did an id longer than any message's.
 */
class JmxByIdOperationsTest extends RedisDelayTestSupport {

    static Stream<Arguments> idsNoMessageHas() {
        return Stream.of(Arguments.of(null, "no message id"), Arguments.of("", "0 characters"),
                Arguments.of("x".repeat(513), "513 characters"));
    }

    @ParameterizedTest
    @MethodSource("idsNoMessageHas")
    void peekMessageAndRedriveDeadLetterRefuseAnIdNoMessageCanHaveNamingWhatIsAllowed(String id, String named)
            throws Exception {
        String uri = "redis-delay:jobs?maxDeliveries=1&shards=2";
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from(uri).process(e -> {
                    throw new IllegalStateException("shop down");
                });
            }
        });
        node.createProducerTemplate().sendBodyAndHeaders(uri, "job", Map.of(RedisDelayConstants.MESSAGE_ID, "job-1"));
        RedisDelayEndpoint endpoint = node.getEndpoint(uri, RedisDelayEndpoint.class);
        await().atMost(Duration.ofSeconds(10)).until(() -> "dead".equals(endpoint.peekMessage("job-1").get("state")));

        assertThatThrownBy(() -> endpoint.peekMessage(id)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("peekMessage").hasMessageContaining("jobs").hasMessageContaining(named)
                .hasMessageContaining("1 to 512 characters");
        assertThatThrownBy(() -> endpoint.redriveDeadLetter(id)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("redriveDeadLetter").hasMessageContaining("jobs").hasMessageContaining(named)
                .hasMessageContaining("1 to 512 characters");
        assertThat(endpoint.peekMessage("job-1")).as("the dead letter, left where it is").containsEntry("state", "dead");
    }
}
