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

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.apache.camel.CamelContext;
import org.apache.camel.main.Main;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Options with a fixed set of values ({@code onDuplicate}, {@code consumerType}, {@code migrateCodec},
 * {@code operation}): an unknown value fails naming the option, the value and every value allowed, however the option
 * is set; the allowed ones are read as Camel reads enums, whatever their case.
 */
@CamelSide
class EnumOptionsTest extends RedisDelayTestSupport {

    @ParameterizedTest
    @CsvSource({
            "onDuplicate, overwrite, 'keep, replace, fail'", "consumerType, push, 'blocking, polling'",
            "migrateCodec, kryo, 'bytes, string, json'",
            "operation, delete, 'schedule, scheduleBatch, cancel, reschedule, stats, peek, purge'" })
    void anEndpointOptionWithAnUnknownValueFailsNamingTheValueAndTheAllowedOnes(String option, String value, String allowed)
            throws Exception {
        CamelContext context = startContext();

        assertThatThrownBy(() -> context.getEndpoint("redis-delay:orders?" + option + "=" + value))
                .as("%s=%s", option, value).rootCause().isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(option).hasMessageContaining("'" + value + "'").hasMessageContaining(allowed);
    }

    @Test
    void aComponentOptionWithAnUnknownValueFailsTheStartupNamingTheValueAndTheAllowedOnes() {
        Main main = new Main();
        main.addInitialProperty("camel.component.redis-delay.address", RedisServerExtension.redisUrl());
        main.addInitialProperty("camel.component.redis-delay.on-duplicate", "overwrite");
        try {
            assertThatThrownBy(main::start).rootCause().isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("onDuplicate option of component redis-delay")
                    .hasMessageContaining("'overwrite'").hasMessageContaining("keep, replace, fail");
        } finally {
            main.stop();
        }
    }

    @Test
    void anAllowedValueIsReadWhateverItsCase() throws Exception {
        CamelContext context = startContext();

        RedisDelayEndpoint endpoint = context.getEndpoint("redis-delay:orders?onDuplicate=REPLACE&consumerType=Polling",
                RedisDelayEndpoint.class);

        assertThat(endpoint.getConfiguration().getOnDuplicate()).isEqualTo(OnDuplicate.replace);
        assertThat(endpoint.getConfiguration().getConsumerType()).isEqualTo(ConsumerType.polling);
    }
}
