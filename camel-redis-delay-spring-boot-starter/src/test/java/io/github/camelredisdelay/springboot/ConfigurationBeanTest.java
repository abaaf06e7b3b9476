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

import io.github.camelredisdelay.OnDuplicate;
import io.github.camelredisdelay.RedisDelayComponent;
import io.github.camelredisdelay.RedisDelayConfiguration;
import org.apache.camel.CamelContext;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code camel.component.redis-delay.configuration} names a bean of shared defaults; options set beside it apply on top
 * of that bean, whatever order they are bound in.
 */
class ConfigurationBeanTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(OneRedissonClient.class)
    static class WithDefaultsBean {

        @Bean
        RedisDelayConfiguration delayDefaults() {
            RedisDelayConfiguration defaults = new RedisDelayConfiguration();
            defaults.setTransferBatchSize(250);
            return defaults;
        }
    }

    @Test
    void optionsSetBesideAConfigurationBeanAreAllApplied() {
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(WithDefaultsBean.class).properties(
                // not application.yml: only these options, which Camel's own map would apply in an order of its hashing
                "spring.config.name=configuration-bean-test",
                "camel.component.redis-delay.configuration=#bean:delayDefaults",
                "camel.component.redis-delay.delay=5s",
                "camel.component.redis-delay.on-duplicate=replace",
                "camel.component.redis-delay.shards=3",
                "camel.component.redis-delay.sync-timeout=2s").run()) {
            RedisDelayConfiguration configuration = context.getBean(CamelContext.class)
                    .getComponent("redis-delay", RedisDelayComponent.class).getConfiguration();

            RedisDelayConfiguration bean = context.getBean("delayDefaults", RedisDelayConfiguration.class);
            assertThat(configuration).as("a copy, which the options beside it change, not the bean").isNotSameAs(bean);
            assertThat(bean.getDelay()).as("the bean, which other components may share, is left as it was").isZero();
            assertThat(configuration.getTransferBatchSize()).as("from the bean").isEqualTo(250);
            assertThat(configuration.getDelay()).isEqualTo(5_000);
            assertThat(configuration.getOnDuplicate()).isEqualTo(OnDuplicate.replace);
            assertThat(configuration.getShards()).isEqualTo(3);
            assertThat(configuration.getSyncTimeout()).isEqualTo(2_000);
        }
    }
}
