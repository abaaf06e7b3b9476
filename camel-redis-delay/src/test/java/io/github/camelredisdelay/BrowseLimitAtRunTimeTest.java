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

import java.util.stream.IntStream;

import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.spi.BrowsableEndpoint;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * browseLimit set at run time (Camel's {@link BrowsableEndpoint#setBrowseLimit}, as tooling and code call it on a
 * started endpoint) is refused out of 1 to 10000, as it is in an endpoint URI.
 */
class BrowseLimitAtRunTimeTest extends RedisDelayTestSupport {

    @Test
    void aBrowseLimitOutOfRangeSetOnAStartedEndpointIsRefusedAndTheOldOneKept() throws Exception {
        CamelContext node = startContext();
        node.createProducerTemplate().sendBody("redis-delay:orders?operation=scheduleBatch&delay=1h",
                IntStream.range(0, 3).mapToObj(i -> "m" + i).toList());
        BrowsableEndpoint endpoint = node.getEndpoint("redis-delay:orders?browseLimit=2", BrowsableEndpoint.class);

        assertThatThrownBy(() -> endpoint.setBrowseLimit(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("browseLimit 0").hasMessageContaining("orders").hasMessageContaining("1 to 10000");
        assertThatThrownBy(() -> endpoint.setBrowseLimit(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("browseLimit -1");
        assertThatThrownBy(() -> endpoint.setBrowseLimit(10_001)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("browseLimit 10001");

        assertThat(endpoint.getBrowseLimit()).isEqualTo(2);
        assertThat(endpoint.getExchanges()).hasSize(2);
        endpoint.setBrowseLimit(3);
        assertThat(endpoint.getExchanges()).hasSize(3);
    }
}
