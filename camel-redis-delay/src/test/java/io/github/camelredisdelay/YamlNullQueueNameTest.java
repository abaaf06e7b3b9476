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
import org.apache.camel.CamelContext;
import org.apache.camel.support.PluginHelper;
import org.apache.camel.support.ResourceHelper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The YAML DSL hands a parameter written {@code null} (or {@code Null}, {@code NULL}) to the endpoint as the text
 * {@code null}: a queue-name option so written would name a queue "null" in silence, where its author meant none; a
 * {@code keyPrefix} so written would put the queues in a namespace "null", apart from those of every endpoint that
 * leaves it out.
 */
@CamelSide
class YamlNullQueueNameTest extends RedisDelayTestSupport {

    @ParameterizedTest
    @ValueSource(strings = { "deadLetterQueue: null", "migrateFrom: null", "deadLetterQueue: NULL", "keyPrefix: null" })
    void aQueueNameOptionWrittenAsNullInYamlFailsTheStartSayingToLeaveItOut(String parameter) throws Exception {
        String option = parameter.substring(0, parameter.indexOf(':'));
        CamelContext context = createContext();

        assertThatThrownBy(() -> startWithYamlRoute(context, """
                - route:
                    from:
                      uri: redis-delay:orders
                      parameters:
                        %s
                      steps:
                        - log: "${body}"
                """.formatted(parameter))).rootCause().isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Invalid " + option).hasMessageContaining("of queue orders")
                .hasMessageContaining("YAML").hasMessageContaining("leave " + option + " out");
    }

    @Test
    void aQueueNameWrittenAsNullInYamlFailsTheStartSayingToNameTheQueue() throws Exception {
        CamelContext context = createContext();

        assertThatThrownBy(() -> startWithYamlRoute(context, """
                - route:
                    from:
                      uri: direct:in
                      steps:
                        - to:
                            uri: redis-delay
                            parameters:
                              queueName: null
                """)).rootCause().isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Queue name 'null'").hasMessageContaining("YAML")
                .hasMessageContaining("redis-delay:<queue>");
    }

    private static void startWithYamlRoute(CamelContext context, String yaml) throws Exception {
        PluginHelper.getRoutesLoader(context).loadRoutes(ResourceHelper.fromString("routes.yaml", yaml));
        context.start();
    }
}
