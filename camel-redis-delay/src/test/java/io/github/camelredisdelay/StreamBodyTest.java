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
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.test.CamelSide;
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
@CamelSide
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

    /** A Reader on an exchange naming another charset: the steps after the producer read its text as it was. */
    @Test
    void theStepsAfterTheProducerReadAReaderBodysTextWhateverCharsetTheExchangeNames() throws Exception {
        CamelContext node = withoutStreamCaching(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:schedule").to("redis-delay:orders?delay=1h")
                        .process(e -> afterTheProducer.add(e.getMessage().getBody(String.class)));
            }
        });

        node.createProducerTemplate().send("direct:schedule", e -> {
            e.setProperty(Exchange.CHARSET_NAME, "ISO-8859-1");
            e.getMessage().setBody(new StringReader("café"));
        });

        assertThat(afterTheProducer).containsExactly("café");
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

    /**
     * A batch of streams whose first try fails in Redis (its message hash holds another kind of value, which the
     * redelivery's onRedelivery step removes): the redelivery stores what the first try read of each stream.
     */
    @Test
    void aRedeliveredBatchOfStreamsStoresEachStreamsBytes() throws Exception {
        CamelContext node = withoutStreamCaching(new RouteBuilder() {
            @Override
            public void configure() {
                onException(Exception.class).maximumRedeliveries(1).redeliveryDelay(0)
                        .onRedelivery(e -> redis().getKeys().delete(key("orders", "msg")));
                from("direct:batch").to("redis-delay:orders?operation=scheduleBatch&delay=1h");
            }
        });
        redis().getBucket(key("orders", "msg")).set("not a hash");

        Exchange done = node.createProducerTemplate().send("direct:batch", e -> e.getMessage().setBody(
                List.of(new ByteArrayInputStream(bytes("first")), new ByteArrayInputStream(bytes("second")))));

        assertThat(done.getException()).isNull();
        List<String> stored = node.getEndpoint("redis-delay:orders", BrowsableEndpoint.class).getExchanges().stream()
                .map(e -> new String(e.getMessage().getBody(byte[].class), StandardCharsets.UTF_8)).toList();
        assertThat(stored).containsExactlyInAnyOrder("first", "second");
    }

    /**
     * A batch whose first try fails reading one of its streams: the streams before it are read, so a redelivery cannot
     * store the batch whole; it fails, naming why, and stores nothing.
     */
    @Test
    void aRedeliveredBatchWhoseStreamFailedWhileReadFailsAndStoresNothing() throws Exception {
        CamelContext node = withoutStreamCaching(new RouteBuilder() {
            @Override
            public void configure() {
                onException(Exception.class).maximumRedeliveries(1).redeliveryDelay(0);
                from("direct:batch").to("redis-delay:orders?operation=scheduleBatch&delay=1h");
            }
        });

        Exchange done = node.createProducerTemplate().send("direct:batch", e -> e.getMessage().setBody(
                List.of(new ByteArrayInputStream(bytes("first")), new BrokenOnceStream("second"))));

        assertThat(done.getException()).hasMessageContaining("could be read only once");
        assertThat(redis().getMap(key("orders", "msg")).isExists()).isFalse();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** A stream whose first read fails, as one whose connection broke, and that then serves its text. */
    private static final class BrokenOnceStream extends InputStream {
        private final InputStream text;
        private boolean failed;

        BrokenOnceStream(String text) {
            this.text = new ByteArrayInputStream(bytes(text));
        }

        @Override
        public int read() throws IOException {
            if (!failed) {
                failed = true;
                throw new IOException("connection reset");
            }
            return text.read();
        }
    }
}
