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

import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A schedule whose headers the envelope cannot hold (more than 65,535 of them, or a name longer than 65,535 bytes)
 * fails naming the queue, the message and the limit, and how to keep such headers out, as every other producer error
 * names the queue: "Too many headers to store: 65536 (at most 65535)" alone leaves the user to guess which of the
 * application's queues, and which message, and what to do.
 */
class EnvelopeLimitErrorTest extends RedisDelayTestSupport {

    @Test
    void tooManyHeadersFailNamingTheQueueTheMessageTheLimitAndTheWayOut() throws Exception {
        Map<String, Object> headers = IntStream.rangeClosed(0, 0xFFFF).boxed()
                .collect(Collectors.toMap(n -> "h" + n, n -> "v"));

        Exception failure = scheduleFailure("crowded", "too-many", headers);

        assertThat(failure).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("queue crowded")
                .hasMessageContaining("message too-many")
                .hasMessageContaining("65536 headers")
                .hasMessageContaining("at most 65535")
                .hasMessageContaining("headerFilterStrategy");
        assertThat(redis().getMap(key("crowded", "msg")).isExists()).as("anything stored").isFalse();
    }

    @Test
    void aTooLongHeaderNameFailsNamingTheQueueTheMessageTheLimitAndTheWayOut() throws Exception {
        String name = "x".repeat(0x10000);

        Exception failure = scheduleFailure("wordy", "long-name", Map.of(name, "v"));

        assertThat(failure).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("queue wordy")
                .hasMessageContaining("message long-name")
                .hasMessageContaining("65536 bytes")
                .hasMessageContaining("at most 65535")
                .hasMessageContaining("headerFilterStrategy");
        assertThat(failure.getMessage()).as("the message, not the whole name").hasSizeLessThan(1_000);
    }

    private Exception scheduleFailure(String queue, String id, Map<String, Object> headers) throws Exception {
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:schedule").to("redis-delay:" + queue + "?delay=1h");
            }
        });
        Exchange exchange = context.createProducerTemplate().send("direct:schedule", e -> {
            e.getMessage().setHeaders(new HashMap<>(headers));
            e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, id);
            e.getMessage().setBody("body");
        });
        assertThat(exchange.getException()).as("the schedule's failure").isNotNull();
        return exchange.getException();
    }
}
