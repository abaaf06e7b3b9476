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

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.spi.BrowsableEndpoint;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stream body on a context without stream caching: the producer reads it to store it, and leaves the exchange with
 * the drained stream. Camel's redelivery of a schedule then stores an empty body, and the steps after the producer read
 * nothing.
 */
class StreamBodyTest extends RedisDelayTestSupport {

    private final List<String> afterTheProducer = new CopyOnWriteArrayList<>();

    private CamelContext withoutStreamCaching(RouteBuilder routes) throws Exception {
        CamelContext context = createContext(routes);
        context.setStreamCaching(false);
        context.start();
        return context;
    }

    @Test
    void aRedeliveredScheduleOfAStreamBodyStoresTheStreamsBytes() throws Exception {
        CamelContext node = withoutStreamCaching(new RouteBuilder() {
            @Override
            public void configure() {
                onException(NotReplicatedException.class).maximumRedeliveries(1).redeliveryDelay(0);
                // no replica answers: the first try is stored, then fails; the redelivery replaces it
                from("direct:schedule")
                        .to("redis-delay:orders?delay=1h&syncReplicas=1&syncTimeout=50&onDuplicate=replace");
            }
        });

        node.createProducerTemplate().send("direct:schedule", e -> {
            e.getMessage().setBody(new ByteArrayInputStream("order-1".getBytes(StandardCharsets.UTF_8)));
            e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, "o1");
        });

        Exchange stored = node.getEndpoint("redis-delay:orders", BrowsableEndpoint.class).getExchanges().get(0);
        assertThat(stored.getMessage().getBody(String.class)).isEqualTo("order-1");
    }

    @Test
    void theStepsAfterTheProducerStillReadTheStreamBody() throws Exception {
        CamelContext node = withoutStreamCaching(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:schedule").to("redis-delay:orders?delay=1h")
                        .process(e -> afterTheProducer.add(e.getMessage().getBody(String.class)));
            }
        });

        node.createProducerTemplate().sendBody("direct:schedule",
                new ByteArrayInputStream("order-1".getBytes(StandardCharsets.UTF_8)));

        assertThat(afterTheProducer).containsExactly("order-1");
    }

    @Test
    void aRedeliveredScheduleOfAStreamBodyKeepsItsGeneratedIdAndStoresOneCopy() throws Exception {
        CamelContext node = withoutStreamCaching(new RouteBuilder() {
            @Override
            public void configure() {
                onException(NotReplicatedException.class).maximumRedeliveries(1).redeliveryDelay(0);
                from("direct:schedule").to("redis-delay:orders?delay=1h&syncReplicas=1&syncTimeout=50");
            }
        });

        // fails again: no replica answers the redelivery either
        node.createProducerTemplate().send("direct:schedule",
                e -> e.getMessage().setBody(new ByteArrayInputStream("order-1".getBytes(StandardCharsets.UTF_8))));

        List<Exchange> stored = node.getEndpoint("redis-delay:orders", BrowsableEndpoint.class).getExchanges();
        assertThat(stored).as("the redelivery used the id the first try stored under").hasSize(1);
        assertThat(stored.get(0).getMessage().getBody(String.class)).isEqualTo("order-1");
    }
}
