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
import io.github.camelredisdelay.embedded.RedisServerProcess;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.spi.ComponentCustomizer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.redisson.api.RedissonClient;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Which RedissonClient the component uses when the application has two (one for caching, one for queues), and the
 * switch that turns the starter off.
 */
class ClientChoiceTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(TestRedis.class)
    static class TwoClients {

        @Bean(destroyMethod = "shutdown")
        RedissonClient cacheClient(RedisServerProcess redisServer) {
            return TestRedis.client(redisServer);
        }

        @Bean(destroyMethod = "shutdown")
        RedissonClient queueClient(RedisServerProcess redisServer) {
            return TestRedis.client(redisServer);
        }

        @Bean
        RouteBuilder consumer(Delivered delivered) {
            return new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:choice").process(e -> delivered.add(e.getMessage().getBody(String.class)));
                }
            };
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(OneRedissonClient.class)
    static class OneClient {
    }

    /** {@link TwoClients}, the cache's marked {@code @Primary} as Spring applications do for their usual one. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class PrimaryCacheClient extends TwoClients {

        @Primary
        @Override
        @Bean(destroyMethod = "shutdown")
        RedissonClient cacheClient(RedisServerProcess redisServer) {
            return super.cacheClient(redisServer);
        }
    }

    private static SpringApplicationBuilder app(String... properties) {
        return new SpringApplicationBuilder(TwoClients.class).properties(properties);
    }

    @ParameterizedTest
    @ValueSource(strings = { "#bean:queueClient", "queueClient" })
    void redissonClientPropertyPicksTheNamedBean(String reference) {
        try (ConfigurableApplicationContext context = app(
                "camel.component.redis-delay.redisson-client=" + reference).run()) {
            RedisDelayComponent component = context.getBean(CamelContext.class)
                    .getComponent("redis-delay", RedisDelayComponent.class);

            assertThat(component.getConfiguration().getRedissonClient()).isSameAs(context.getBean("queueClient"));
        }
    }

    @Test
    void aRedissonClientPropertyNamingNoBeanFailsTheStartupNamingIt() {
        assertThatThrownBy(() -> app("camel.component.redis-delay.redisson-client=queueClinet").run().close())
                .rootCause()
                .hasMessageContaining("queueClinet");
    }

    @Test
    void twoClientsAndNoChoiceFailTheStartupNamingBoth() {
        // the check lives in the component (at start), so camel-main and Spring Boot fail alike
        assertThatThrownBy(() -> app().run().close())
                .rootCause()
                .hasMessageContaining("cacheClient")
                .hasMessageContaining("queueClient");
    }

    /**
     * Under Spring, Camel's autowiring takes the {@code @Primary} one of several RedissonClient beans, so the startup
     * does not stop for want of a choice: the queues use the primary client, which the README says.
     */
    @Test
    void aPrimaryClientAmongSeveralIsUsedWithoutAChoice() {
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(PrimaryCacheClient.class)
                .properties("spring.config.name=client-choice-test").run()) {
            RedisDelayComponent component = context.getBean(CamelContext.class)
                    .getComponent("redis-delay", RedisDelayComponent.class);

            assertThat(component.getConfiguration().getRedissonClient()).isSameAs(context.getBean("cacheClient"));
        }
    }

    @Test
    void enabledFalseLeavesTheComponentUnconfigured() {
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(OneClient.class).properties(
                "camel.component.redis-delay.enabled=false", "camel.component.redis-delay.max-deliveries=9").run()) {
            RedisDelayComponent component = context.getBean(CamelContext.class)
                    .getComponent("redis-delay", RedisDelayComponent.class);

            assertThat(context.getBeanNamesForType(RedisDelayComponentConfiguration.class)).isEmpty();
            assertThat(context.getBeansOfType(ComponentCustomizer.class)).doesNotContainKey("configureRedisDelayComponent");
            assertThat(component.getConfiguration().getMaxDeliveries()).isEqualTo(5);
        }
    }
}
