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
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Spring Boot property value has been resolved by Spring already (its ${...} placeholders); the starter hands it to
 * Camel's PropertyBindingSupport, which resolves Camel's {{...}} placeholders in it a second time. A Redis password
 * (from a secret store, say) that contains "{{" then fails the startup, and the failure quotes the whole password:
 * "Property with key [cd] not found in properties from text: ab{{cd}}ef". Spring Boot offers no way to escape it
 * (RAW(...) is kept literally).
 */
class LiteralSecretPropertyTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(TestRedis.class)
    static class NoClientBean {
    }

    @Test
    void aPasswordIsBoundAsSpringResolvedIt() {
        String password = "s3cr{{et}}Pw";
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(NoClientBean.class).properties(
                "spring.config.name=literal-secret-property-test", "camel.component.redis-delay.password=" + password)
                .run()) {
            assertThat(context.getBean(CamelContext.class).getComponent("redis-delay", RedisDelayComponent.class)
                    .getConfiguration().getPassword()).isEqualTo(password);
        }
    }
}
