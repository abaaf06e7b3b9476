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
package io.github.camelredisdelay.springboot;

import java.util.Set;

import io.github.camelredisdelay.RedisDelayComponent;
import org.apache.camel.Component;
import org.apache.camel.spi.ComponentCustomizer;
import org.apache.camel.spring.boot.CamelAutoConfiguration;
import org.apache.camel.spring.boot.util.ConditionalOnCamelContextAndAutoConfigurationBeans;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Lazy;

/**
 * Leaves the {@code CAMEL_COMPONENT_REDIS_DELAY_*} environment variables to Spring, which reads them in its own order
 * of property sources (a command-line argument outranks the environment): the component must not set their options
 * again on top, whether the starter's properties apply or the component is switched off ({@code enabled=false}).
 */
@AutoConfiguration(after = CamelAutoConfiguration.class)
@ConditionalOnClass(RedisDelayComponent.class)
@Conditional(ConditionalOnCamelContextAndAutoConfigurationBeans.class)
public class RedisDelayEnvironmentAutoConfiguration {

    /** The starter's own properties under the component's prefix, which no option of the component names. */
    private static final Set<String> STARTER_PROPERTIES = Set.of("enabled", "customizerEnabled");
    /** The options the starter binds as lists, from variables with an index too ({@code ..._RETRY_SCHEDULE_0}). */
    private static final Set<String> LIST_OPTIONS = Set.of("retrySchedule");

    /** Tells every {@code redis-delay} component Camel creates that Spring reads the environment. */
    @Lazy
    @Bean
    public ComponentCustomizer leaveRedisDelayEnvironmentToSpring() {
        return new ComponentCustomizer() {
            @Override
            public void configure(String name, Component target) {
                ((RedisDelayComponent) target).environmentReadByApplication(STARTER_PROPERTIES, LIST_OPTIONS);
            }

            @Override
            public boolean isEnabled(String name, Component target) {
                return target instanceof RedisDelayComponent;
            }
        };
    }
}
