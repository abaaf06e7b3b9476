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

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.main.Main;
import org.apache.camel.util.StringHelper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * {@code camel.component.redis-delay.configuration} names a bean of shared defaults; under camel-main (and so Camel
 * JBang) the options set beside it in application.properties must apply on top of it, as they do under Spring Boot (the
 * starter's ConfigurationBeanTest). The component page lists {@code configuration} as an ordinary component option.
 */
@CamelSide
class CamelMainConfigurationBeanTest extends RedisDelayTestSupport {

    @Test
    void optionsSetBesideAConfigurationBeanInAPropertyFileAreAllApplied(@TempDir Path directory) throws Exception {
        Path properties = directory.resolve("application.properties");
        // the bean first, then what this application changes: the order a reader expects to work
        Files.writeString(properties, String.join("\n",
                "camel.component.redis-delay.configuration=#bean:delayDefaults",
                "camel.component.redis-delay.address=" + RedisServerExtension.redisUrl(),
                "camel.component.redis-delay.key-prefix=" + keyPrefix,
                "camel.component.redis-delay.delay=5s",
                "camel.component.redis-delay.max-deliveries=9", ""));
        RedisDelayConfiguration defaults = new RedisDelayConfiguration();
        defaults.setTransferBatchSize(250);
        List<String> scheduledFor = new CopyOnWriteArrayList<>();

        Main main = new Main();
        main.bind("delayDefaults", defaults);
        main.setPropertyPlaceholderLocations("file:" + properties);
        main.configure().addRoutesBuilder(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:schedule").to("redis-delay:main-defaults")
                        .process(e -> scheduledFor.add(String.valueOf(e.getMessage().getHeader(
                                RedisDelayConstants.SCHEDULED_FOR))));
            }
        });
        try {
            main.start();
            RedisDelayConfiguration configuration = main.getCamelContext()
                    .getComponent("redis-delay", RedisDelayComponent.class).getConfiguration();

            assertThat(configuration.getTransferBatchSize()).as("from the bean").isEqualTo(250);
            assertThat(configuration.getAddress()).as("address").isEqualTo(RedisServerExtension.redisUrl());
            assertThat(configuration.getKeyPrefix()).as("keyPrefix").isEqualTo(keyPrefix);
            assertThat(configuration.getDelay()).as("delay").isEqualTo(5_000);
            assertThat(configuration.getMaxDeliveries()).as("maxDeliveries").isEqualTo(9);

            // and the queue is where the file says, scheduled with the file's delay
            main.getCamelContext().createProducerTemplate().sendBody("direct:schedule", "hello");
            await().atMost(Duration.ofSeconds(5)).until(() -> !scheduledFor.isEmpty());
            assertThat(redis().getMap(key("main-defaults", "msg")).size()).isEqualTo(1);
        } finally {
            main.stop();
        }
    }

    @Test
    void optionsSetOnTheConfigurationBeanPathAreReadAsTheComponentsOwn() throws Exception {
        RedisDelayConfiguration defaults = new RedisDelayConfiguration();
        defaults.setTransferBatchSize(250);
        Main main = new Main();
        main.bind("delayDefaults", defaults);
        main.addInitialProperty("camel.component.redis-delay.configuration", "#bean:delayDefaults");
        main.addInitialProperty("camel.component.redis-delay.configuration.delay", "5s");
        main.addInitialProperty("camel.component.redis-delay.configuration.visibility-timeout", "PT45S");
        main.addInitialProperty("camel.component.redis-delay.configuration.consumer-type", "polling");
        try {
            main.start();
            RedisDelayConfiguration configuration = main.getCamelContext()
                    .getComponent("redis-delay", RedisDelayComponent.class).getConfiguration();

            assertThat(configuration.getDelay()).as("delay").isEqualTo(5_000);
            assertThat(configuration.getVisibilityTimeout()).as("visibilityTimeout").isEqualTo(45_000);
            assertThat(configuration.getConsumerType()).as("consumerType").isEqualTo(ConsumerType.polling);
            assertThat(configuration.getTransferBatchSize()).as("from the bean").isEqualTo(250);
        } finally {
            main.stop();
        }
    }

    @Test
    void aConfigurationBeanDeclaredInPropertiesReadsItsDurationsAsTheComponentDoes() throws Exception {
        Main main = new Main();
        main.addInitialProperty("camel.beans.delayDefaults", "#class:" + RedisDelayConfiguration.class.getName());
        main.addInitialProperty("camel.beans.delayDefaults.delay", "1h30m");
        main.addInitialProperty("camel.component.redis-delay.configuration", "#bean:delayDefaults");
        try {
            main.start();

            assertThat(main.getCamelContext().getComponent("redis-delay", RedisDelayComponent.class).getConfiguration()
                    .getDelay()).isEqualTo(TimeUnit.MINUTES.toMillis(90));
        } finally {
            main.stop();
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "delay|30M|30m", "max-deliveries|abc|a whole number",
            "consumer-type|fast|blocking, polling" })
    void aValueTheComponentRefusesIsRefusedOnTheConfigurationBeanPathWithTheSameMessage(
            String option, String value, String allowed) {
        Main main = new Main();
        main.addInitialProperty("camel.component.redis-delay.configuration." + option, value);
        try {
            assertThatThrownBy(main::start).rootCause().isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(StringHelper.dashToCamelCase(option) + " option")
                    .hasMessageContaining("'" + value + "'").hasMessageContaining(allowed);
        } finally {
            main.stop();
        }
    }
}
