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

import java.util.Map;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.main.Main;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Whole-number options ({@code maxDeliveries}, {@code database}, ...) given a value that is no whole number are read as
 * 0 by Camel's converter of primitive and boxed integers, and nothing refuses it: {@code maxDeliveries=abc} becomes 0,
 * "retry forever" (a poison message never reaches the dead-letter queue), {@code database=x} becomes database 0, and so
 * does a value with a trailing blank in application.properties ({@code max-deliveries=3 }, which java.util.Properties
 * keeps). Where 0 is refused anyway the error names 0, not what was written ("Invalid transferBatchSize 0", for
 * transferBatchSize=1k). Durations are read strictly for exactly this reason.
 */
@CamelSide
class WholeNumberOptionsTest extends RedisDelayTestSupport {

    @ParameterizedTest
    @CsvSource({ "maxDeliveries, abc", "maxDeliveries, 3.5", "database, two" })
    void anEndpointOptionThatIsNoWholeNumberFailsNamingTheValue(String option, String value) throws Exception {
        CamelContext context = startContext();

        assertThatThrownBy(
                () -> context.getEndpoint("redis-delay:orders?address=" + RedisServerExtension.redisUrl() + "&" + option + "="
                                          + value))
                .as("%s=%s", option, value).hasStackTraceContaining(option).hasStackTraceContaining(value);
    }

    @ParameterizedTest
    @ValueSource(strings = { "max-deliveries", "database" })
    void aCamelMainPropertyWithATrailingBlankIsNotReadAsZero(String option) throws Exception {
        // as java.util.Properties reads the line "camel.component.redis-delay.max-deliveries=3 " of a file
        Main main = camelMain(Map.of(option, "3 "), new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders").log("${body}");
            }
        });
        try {
            try {
                main.start();
            } catch (Exception refused) {
                // refused, naming the value: fine
                assertThat(refused).hasStackTraceContaining("3 ");
                return;
            }
            RedisDelayConfiguration configuration = main.getCamelContext()
                    .getComponent("redis-delay", RedisDelayComponent.class).getConfiguration();
            Object read = option.equals("database") ? configuration.getDatabase() : configuration.getMaxDeliveries();
            assertThat(read).as("%s=\"3 \" was started with", option).isEqualTo(3);
        } finally {
            main.stop();
        }
    }
}
