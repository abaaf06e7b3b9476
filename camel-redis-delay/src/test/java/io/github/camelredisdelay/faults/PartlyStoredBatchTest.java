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

import java.util.Arrays;
import java.util.List;

import io.github.camelredisdelay.PartlyStoredBatchException;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code scheduleBatch} whose second script call Redis refuses (its one message is larger than Redis takes in one
 * argument, {@code proto-max-bulk-len}) after the first stored three messages: those three are stored and will be
 * delivered, and the {@code scheduled} meter counts them, once, whether or not Camel's redelivery stores the rest.
 */
class PartlyStoredBatchTest extends FaultTestSupport {

    /** Larger than Redis' smallest {@code proto-max-bulk-len}, 1 MB, so it also leaves in a call of its own. */
    private static final byte[] TOO_LARGE = new byte[1_100_000];

    @Test
    void messagesABatchStoredBeforeItsCallFailedAreCountedAsScheduled() throws Exception {
        RedisServerProcess server = redisProcess();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        CamelContext context = batchContext(registry, new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:batch").to("redis-delay:parts?delay=1h&operation=scheduleBatch");
            }
        });

        Exchange exchange = sendBatchWhileLargeValuesAreRefused(server, context);

        assertThat(exchange.getException()).isInstanceOf(PartlyStoredBatchException.class);
        assertThat(((PartlyStoredBatchException) exchange.getException()).getStoredIds()).hasSize(3);
        assertThat(redis().getMap(key("parts", "msg")).size()).as("messages stored").isEqualTo(3);
        assertThat(scheduled(registry)).as("messages counted as scheduled").isEqualTo(3);
    }

    @Test
    void aBatchRedeliveredAfterItWasPartlyStoredCountsEachOfItsMessagesOnce() throws Exception {
        RedisServerProcess server = redisProcess();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        CamelContext context = batchContext(registry, new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(defaultErrorHandler().maximumRedeliveries(1).redeliveryDelay(0)
                        .onRedelivery(e -> allowLargeValues(server)));
                from("direct:batch").to("redis-delay:parts?delay=1h&operation=scheduleBatch");
            }
        });

        Exchange exchange = sendBatchWhileLargeValuesAreRefused(server, context);

        assertThat(exchange.getException()).isNull();
        assertThat(exchange.getMessage().getBody(List.class)).hasSize(4);
        assertThat(redis().getMap(key("parts", "msg")).size()).as("messages stored").isEqualTo(4);
        assertThat(scheduled(registry)).as("messages counted as scheduled").isEqualTo(4);
    }

    private CamelContext batchContext(MeterRegistry registry, RouteBuilder routes) throws Exception {
        CamelContext context = createContext(routes);
        context.getRegistry().bind("metricsRegistry", registry);
        context.start();
        // the endpoint's first call (its shard check) is over before Redis refuses large values
        context.createProducerTemplate().sendBody("direct:batch", List.of());
        return context;
    }

    /** Sends three small messages and one too large for Redis in one batch: two script calls. */
    private static Exchange sendBatchWhileLargeValuesAreRefused(RedisServerProcess server, CamelContext context) {
        server.command("CONFIG", "SET", "proto-max-bulk-len", "1mb");
        try {
            return context.createProducerTemplate().send("direct:batch",
                    e -> e.getMessage().setBody(Arrays.asList("a", "b", "c", TOO_LARGE)));
        } finally {
            allowLargeValues(server);
        }
    }

    private static void allowLargeValues(RedisServerProcess server) {
        server.command("CONFIG", "SET", "proto-max-bulk-len", "512mb");
    }

    private static double scheduled(MeterRegistry registry) {
        return registry.get("camel.redis.delay.scheduled").tag("queue", "parts").counter().count();
    }
}
