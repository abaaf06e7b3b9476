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

import io.github.camelredisdelay.RedisDelayComponent;
import org.apache.camel.CamelContext;
import org.apache.camel.Component;
import org.apache.camel.spi.ComponentCustomizer;
import org.apache.camel.spring.boot.CamelAutoConfiguration;
import org.apache.camel.spring.boot.util.ConditionalOnCamelContextAndAutoConfigurationBeans;
import org.apache.camel.spring.boot.util.HierarchicalPropertiesEvaluator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Lazy;

/**
 * Configures another component of the {@code redis-delay} class, such as {@code audit-delay}, a bean of the
 * application's own, from {@code camel.component.<name>.*} (a bean named {@code auditDelay}: from
 * {@code camel.component.audit-delay.*}), as camel-main does: Spring Boot binds nothing for it, and would drop them in
 * silence. Each component has the off switches {@code redis-delay} has, under its own name
 * ({@code camel.component.audit-delay.enabled}, {@code ...customizer.enabled}), and Camel's global ones; apart from
 * {@link RedisDelayComponentAutoConfiguration}, so that {@code camel.component.redis-delay.enabled=false} leaves the
 * other components configured.
 */
@AutoConfiguration(after = { CamelAutoConfiguration.class, RedisDelayComponentConverter.class })
@ConditionalOnClass(RedisDelayComponent.class)
@Conditional(ConditionalOnCamelContextAndAutoConfigurationBeans.class)
public class RedisDelayOtherComponentsAutoConfiguration {

    /**
     * Applies {@code camel.component.<name>.*} to each component of the class not named {@code redis-delay}, unless
     * {@code camel.component.<name>.enabled} or {@code camel.component.<name>.customizer.enabled} is {@code false} (or,
     * where they are not set, {@code camel.component.enabled} or {@code camel.component.customizer.enabled}).
     */
    @Lazy
    @Bean
    public ComponentCustomizer configureOtherRedisDelayComponents(
            ApplicationContext applicationContext, CamelContext camelContext, RedisDelayComponentConverter converter) {
        return new ComponentCustomizer() {
            @Override
            public void configure(String name, Component target) {
                BoundOptions.applyTo(BoundOptions.bind(applicationContext.getEnvironment(), converter, name),
                        camelContext, target, name);
            }

            @Override
            public boolean isEnabled(String name, Component target) {
                String prefix = BoundOptions.prefixOf(name);
                return !RedisDelayComponentAutoConfiguration.COMPONENT.equals(name)
                        && target instanceof RedisDelayComponent
                        && HierarchicalPropertiesEvaluator.evaluate(applicationContext, "camel.component", prefix)
                        && HierarchicalPropertiesEvaluator.evaluate(applicationContext, "camel.component.customizer",
                                prefix + ".customizer");
            }
        };
    }
}
