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

import java.nio.file.Files;
import java.nio.file.Path;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.apache.camel.CamelContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Camel reads endpoint options in kebab case too ({@code max-deliveries=3} is maxDeliveries), as camel-main properties
 * and YAML users write them. An endpoint that chooses its own Redis replaces the component's client, the component page
 * says, with redissonConfig, address or redissonClient; written {@code redisson-config}, the endpoint keeps the
 * component's client as well and cannot start.
 */
@CamelSide
class KebabCaseConnectionOptionTest extends RedisDelayTestSupport {

    @Test
    void anEndpointsOwnRedissonConfigWrittenInKebabCaseReplacesTheComponentsClient(@TempDir Path directory)
            throws Exception {
        Path config = Files.writeString(directory.resolve("redisson.yaml"),
                "singleServerConfig:\n  address: \"" + RedisServerExtension.redisUrl() + "\"\n");
        // the component has a RedissonClient, as with the application's only bean autowired
        CamelContext context = startContext();

        String id = context.createProducerTemplate()
                .requestBody("redis-delay:orders?redisson-config=file:" + config + "&delay=1h", "order-1")
                .toString();

        assertThat(id).isEqualTo("order-1");
        assertThat(redis().getMap(key("orders", "msg")).size()).as("stored through the endpoint's own config")
                .isEqualTo(1);
    }
}
