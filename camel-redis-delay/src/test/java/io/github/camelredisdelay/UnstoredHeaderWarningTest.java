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

import java.util.concurrent.atomic.AtomicLong;

import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A header value of a type that is not stored is dropped with a WARN that names the types that are: "numbers" would
 * promise an {@code AtomicLong} or a number type of the application's own a place they do not get.
 */
class UnstoredHeaderWarningTest extends RedisDelayTestSupport {

    @Test
    void theWarningAboutADroppedNumberHeaderNamesTheNumberTypesThatAreStored() throws Exception {
        CamelContext node = startContext();
        try (LogLines log = LogLines.of(MessageMapper.class)) {
            node.createProducerTemplate().sendBodyAndHeader("redis-delay:orders?delay=1h", "o-1", "attempts",
                    new AtomicLong(3));

            assertThat(log.lines()).singleElement().asString()
                    .contains("Header attempts", AtomicLong.class.getName(),
                            "Long, Integer, Short, Byte, Double, Float, BigDecimal, BigInteger")
                    .doesNotContain("numbers");
        }
    }
}
