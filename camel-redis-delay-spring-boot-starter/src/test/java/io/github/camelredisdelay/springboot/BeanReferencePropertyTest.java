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
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code camel.component.redis-delay.redisson-client} given as a plain bean name ({@code queueClient}, as Spring users
 * name beans, rather than {@code #bean:queueClient}): the starter's converter returns null for it, which Spring's
 * binder takes as "not set", so the property vanishes without a word. Camel's autowiring then picks the application's
 * {@code @Primary} client (its cache's) and the queues are stored there. Under camel-main the same property fails the
 * startup. Either is acceptable here, the named bean used or a startup failure naming the value; a queue silently on
 * another Redis is not ("refuses to guess which Redis to use", ClientChoice).
 */
class BeanReferencePropertyTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(TestRedis.class)
    static class PrimaryCacheClientAndQueueClient {

        @Bean(destroyMethod = "shutdown")
        @Primary
        RedissonClient cacheClient(RedisServerProcess redisServer) {
            return TestRedis.client(redisServer);
        }

        @Bean(destroyMethod = "shutdown")
        RedissonClient queueClient(RedisServerProcess redisServer) {
            return TestRedis.client(redisServer);
        }
    }

    @Test
    void aPlainBeanNameForTheRedissonClientIsUsedOrFailsTheStartupNeverIgnored() {
        SpringApplicationBuilder app = new SpringApplicationBuilder(PrimaryCacheClientAndQueueClient.class).properties(
                "spring.config.name=bean-reference-property-test",
                "camel.component.redis-delay.redisson-client=queueClient");
        ConfigurableApplicationContext context;
        try {
            context = app.run();
        } catch (RuntimeException startupFailure) {
            Throwable cause = startupFailure;
            while (cause.getCause() != null && cause.getCause() != cause) {
                cause = cause.getCause();
            }
            assertThat(cause.getMessage()).as("startup failure").contains("queueClient");
            return;
        }
        try (context) {
            RedissonClient used = context.getBean(CamelContext.class)
                    .getComponent("redis-delay", RedisDelayComponent.class).getConfiguration().getRedissonClient();

            assertThat(used).as("the client the queues use (the @Primary cacheClient means the property was ignored)")
                    .isSameAs(context.getBean("queueClient"));
        }
    }
}
