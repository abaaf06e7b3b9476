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

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import io.github.camelredisdelay.MigrateCodec;
import io.github.camelredisdelay.RedisDelayComponent;
import io.github.camelredisdelay.RedisDelayConfiguration;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** An application with the starter, one RedissonClient bean and application.yml schedules and consumes. */
@SpringBootTest(classes = ScheduleAndConsumeTest.App.class)
class ScheduleAndConsumeTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(OneRedissonClient.class)
    static class App {

        @Bean
        RouteBuilder orders(Delivered delivered) {
            return new RouteBuilder() {
                @Override
                public void configure() {
                    from("direct:placeOrder").to("redis-delay:orders?delay=300ms");
                    from("redis-delay:orders").routeId("orders-consumer")
                            .process(e -> delivered.add(e.getMessage().getBody(String.class)));
                }
            };
        }
    }

    @Autowired
    private CamelContext camelContext;
    @Autowired
    private ProducerTemplate producer;
    @Autowired
    private RedissonClient redisson;
    @Autowired
    private RedisServerProcess redisServer;
    @Autowired
    private Delivered delivered;

    @Test
    void applicationYmlIsBoundInKebabCaseAndCamelCase() {
        RedisDelayConfiguration configuration
                = camelContext.getComponent("redis-delay", RedisDelayComponent.class).getConfiguration();

        assertThat(configuration.getKeyPrefix()).isEqualTo("sb-test");
        assertThat(configuration.getMaxDeliveries()).isEqualTo(3);
        assertThat(configuration.getRetrySchedule()).isEqualTo("200ms,1s");
        assertThat(configuration.getVisibilityTimeout()).isEqualTo(20_000);
        assertThat(configuration.getConcurrentConsumers()).isEqualTo(2);
        assertThat(configuration.getTransferInterval()).isEqualTo(500);
        assertThat(configuration.getBrowseLimit()).isEqualTo(7);
        assertThat(configuration.getMigrateCodec()).isEqualTo(MigrateCodec.string);
        // not in application.yml: the component's own default
        assertThat(configuration.getMaxMessagesPerPoll()).isEqualTo(10);
    }

    @Test
    void theOnlyRedissonClientBeanIsUsed() {
        RedisDelayConfiguration configuration
                = camelContext.getComponent("redis-delay", RedisDelayComponent.class).getConfiguration();

        assertThat(configuration.getRedissonClient()).isSameAs(redisson);
    }

    @Test
    void aRouteSchedulesAndConsumesThroughTheConfiguredPrefix() {
        producer.sendBody("direct:placeOrder", "order-1");

        // stored under the key prefix of application.yml, on the bean's server
        assertThat(redisServer.command("HLEN", "sb-test:{orders}:msg")).isEqualTo("1");
        await().atMost(Duration.ofSeconds(10)).until(() -> delivered.contains("order-1"));
    }

    @Test
    void configurationMetadataGivesTheOptionsTheirDescriptionAndDefault() throws Exception {
        String metadata = new ClassPathResource("META-INF/spring-configuration-metadata.json")
                .getContentAsString(StandardCharsets.UTF_8);

        assertThat(metadata).contains("\"name\": \"camel.component.redis-delay.max-deliveries\"",
                "\"name\": \"camel.component.redis-delay.redisson-client\"",
                "\"name\": \"camel.component.redis-delay.enabled\"",
                "Deliveries before a message goes to the dead-letter queue", "\"defaultValue\": \"camel:delay\"",
                "Whether to configure the redis-delay component")
                .doesNotContain("{@code");
    }

    @Test
    void configurationMetadataHasAPropertyForEveryComponentOptionOfTheCatalog() throws Exception {
        String metadata = new ClassPathResource("META-INF/spring-configuration-metadata.json").getContentAsString(
                StandardCharsets.UTF_8);
        String catalog = new ClassPathResource("META-INF/io/github/camelredisdelay/redis-delay.json").getContentAsString(
                StandardCharsets.UTF_8);
        String componentProperties = catalog.substring(catalog.indexOf("\"componentProperties\""),
                catalog.indexOf("\"headers\""));
        List<String> options = Pattern.compile("^    \"(\\w+)\": \\{", Pattern.MULTILINE).matcher(componentProperties)
                .results().map(match -> match.group(1)).toList();

        assertThat(options).hasSizeGreaterThan(30);
        assertThat(options).allSatisfy(option -> assertThat(metadata)
                .contains("\"name\": \"camel.component.redis-delay." + kebabCase(option) + "\""));
    }

    private static String kebabCase(String camelCase) {
        return camelCase.replaceAll("([A-Z])", "-$1").toLowerCase(Locale.ROOT);
    }
}
