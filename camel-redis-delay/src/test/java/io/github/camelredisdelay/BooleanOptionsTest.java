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
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.main.Main;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Boolean options ({@code asyncConsumer}, {@code synchronous}, {@code requireNoEviction}, ...) read as the component
 * reads its other options. A line {@code camel.component.redis-delay.async-consumer=true } of application.properties
 * keeps its trailing blank (java.util.Properties does), which camel-main's whole numbers, durations, enums and lists
 * take; a boolean failed the startup instead, with Camel's "Cannot convert the String value: true to type: boolean as
 * the value is not true or false", where the value shown looks right. Spring Boot's starter reads it as true.
 */
@CamelSide
class BooleanOptionsTest extends RedisDelayTestSupport {

    @ParameterizedTest
    @ValueSource(strings = { "async-consumer", "synchronous", "require-no-eviction" })
    void aCamelMainPropertyWithATrailingBlankIsReadAsWritten(String option) throws Exception {
        // as java.util.Properties reads the line "camel.component.redis-delay.async-consumer=true " of a file
        Main main = camelMain(Map.of(option, "true "), new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders").log("${body}");
            }
        });
        try {
            main.start();
            RedisDelayConfiguration configuration = main.getCamelContext()
                    .getComponent("redis-delay", RedisDelayComponent.class).getConfiguration();
            boolean read = switch (option) {
                case "async-consumer" -> configuration.isAsyncConsumer();
                case "synchronous" -> configuration.isSynchronous();
                default -> configuration.isRequireNoEviction();
            };
            assertThat(read).as("%s=\"true \" was started with", option).isTrue();
        } finally {
            main.stop();
        }
    }

    /**
     * A boolean endpoint option given as a reference to a bean ({@code asyncConsumer=#flag}), which Camel looks up in
     * the registry, is read from that bean, as it was before booleans were read strictly.
     */
    @Test
    void anEndpointBooleanOptionGivenAsABeanReferenceIsReadFromTheBean() throws Exception {
        CamelContext context = startContext();
        context.getRegistry().bind("flag", Boolean.TRUE);

        RedisDelayEndpoint endpoint = context.getEndpoint("redis-delay:orders?asyncConsumer=#flag", RedisDelayEndpoint.class);

        assertThat(endpoint.getConfiguration().isAsyncConsumer()).isTrue();
    }
}
