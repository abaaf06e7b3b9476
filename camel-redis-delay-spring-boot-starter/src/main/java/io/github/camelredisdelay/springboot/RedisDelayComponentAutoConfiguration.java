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
import org.apache.camel.spring.boot.ComponentConfigurationProperties;
import org.apache.camel.spring.boot.util.ConditionalOnCamelContextAndAutoConfigurationBeans;
import org.apache.camel.spring.boot.util.ConditionalOnHierarchicalProperties;
import org.apache.camel.spring.boot.util.HierarchicalPropertiesEvaluator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Lazy;

/**
 * Configures the {@code redis-delay} component from {@code camel.component.redis-delay.*} when Camel runs in the
 * application and neither {@code camel.component.enabled} nor {@code camel.component.redis-delay.enabled} is
 * {@code false}. The component itself chooses its {@code RedissonClient}: the one named by {@code redisson-client},
 * else the only {@code RedissonClient} bean.
 */
@AutoConfiguration(after = { CamelAutoConfiguration.class, RedisDelayComponentConverter.class })
@ConditionalOnClass(RedisDelayComponent.class)
@Conditional(ConditionalOnCamelContextAndAutoConfigurationBeans.class)
@ConditionalOnHierarchicalProperties({ "camel.component", RedisDelayComponentConfiguration.PREFIX })
@EnableConfigurationProperties({ ComponentConfigurationProperties.class, RedisDelayComponentConfiguration.class })
public class RedisDelayComponentAutoConfiguration {

    /** The name of the component the properties configure. */
    static final String COMPONENT = "redis-delay";

    /**
     * Applies the bound options to the component named {@code redis-delay}, not to other components of its class (a
     * second one of the application's own, such as {@code audit-delay}, takes its own properties:
     * {@link RedisDelayOtherComponentsAutoConfiguration}).
     */
    @Lazy
    @Bean
    public ComponentCustomizer configureRedisDelayComponent(
            ApplicationContext applicationContext,
            CamelContext camelContext, RedisDelayComponentConfiguration configuration,
            RedisDelayComponentConverter converter) {
        return new ComponentCustomizer() {
            @Override
            public void configure(String name, Component target) {
                // Spring Boot's check of unknown properties leaves out JVM system properties and environment variables
                BoundOptions.bind(applicationContext.getEnvironment(), converter, name);
                BoundOptions.applyTo(configuration, camelContext, target, name);
            }

            @Override
            public boolean isEnabled(String name, Component target) {
                return COMPONENT.equals(name) && target instanceof RedisDelayComponent
                        && HierarchicalPropertiesEvaluator.evaluate(applicationContext, "camel.component.customizer",
                                RedisDelayComponentConfiguration.PREFIX + ".customizer");
            }
        };
    }
}
