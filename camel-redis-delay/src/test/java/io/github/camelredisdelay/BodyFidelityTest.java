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

import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.spi.BrowsableEndpoint;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bodies that are converted before they are stored come back as the value that was scheduled, not as another value of
 * the same type.
 */
class BodyFidelityTest extends RedisDelayTestSupport {

    /** An enum whose text for people is not its constant's name. */
    enum Status {
        OPEN,
        CLOSED {
            @Override
            public String toString() {
                return "Closed status";
            }
        }
    }

    private CamelContext node;

    @BeforeEach
    void startNode() throws Exception {
        node = startContext();
    }

    private Object storedBody() {
        return node.getEndpoint("redis-delay:orders", BrowsableEndpoint.class).getExchanges().get(0).getMessage().getBody();
    }

    @Test
    void anEnumBodyIsStoredAsItsConstantsNameSoThatItConvertsBack() {
        node.createProducerTemplate().sendBody("redis-delay:orders?delay=1h", Status.CLOSED);

        assertThat(storedBody()).isEqualTo("CLOSED");
    }

    @Test
    void aByteBufferBodyIsStoredAsItsRemainingBytes() {
        // "hello", after a header of two bytes the sender has read already
        ByteBuffer buffer = ByteBuffer.wrap("XXhello".getBytes(StandardCharsets.US_ASCII), 2, 5);

        node.createProducerTemplate().sendBody("redis-delay:orders?delay=1h", buffer);

        assertThat(new String((byte[]) storedBody(), StandardCharsets.US_ASCII)).isEqualTo("hello");
    }

    /**
     * A Reader body on an exchange naming another charset ({@code CamelCharsetName}, as a file or HTTP route sets it):
     * its text is stored as UTF-8, as every text is, not in that charset, which the delivered exchange no longer names
     * and so reads back wrong ("caf\uFFFD").
     */
    @Test
    void aReaderBodyIsStoredAsUtf8WhateverCharsetTheExchangeNames() {
        node.createProducerTemplate().send("redis-delay:orders?delay=1h", e -> {
            e.setProperty(Exchange.CHARSET_NAME, "ISO-8859-1");
            e.getMessage().setBody(new StringReader("café"));
        });

        assertThat(new String((byte[]) storedBody(), StandardCharsets.UTF_8)).isEqualTo("café");
    }
}
