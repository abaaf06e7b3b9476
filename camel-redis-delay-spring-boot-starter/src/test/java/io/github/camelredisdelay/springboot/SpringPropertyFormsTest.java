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
import io.github.camelredisdelay.RedisDelayConfiguration;
import org.apache.camel.CamelContext;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The forms Spring Boot users write for the component's options bind as the component reads them: a YAML list where the
 * component takes comma-separated text.
 */
class SpringPropertyFormsTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(OneRedissonClient.class)
    static class App {
    }

    @Test
    void aRetryScheduleWrittenAsAYamlListIsTheScheduleInItsOrder() {
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class)
                .properties("spring.config.name=spring-property-forms-test").run()) {
            assertThat(configuration(context).getRetrySchedule()).isEqualTo("15s,3m,10m");
        }
    }

    private static RedisDelayConfiguration configuration(ConfigurableApplicationContext context) {
        return context.getBean(CamelContext.class).getComponent("redis-delay", RedisDelayComponent.class)
                .getConfiguration();
    }
}
