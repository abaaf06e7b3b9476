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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.redisson.config.Protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A component whose Redisson configuration speaks RESP3 ({@code protocol: RESP3}, as a team that uses client-side
 * caching sets it): Redis answers a read that found nothing with a null there, not an empty array.
 */
class Resp3ProtocolTest extends RedisDelayTestSupport {

    @TempDir
    Path dir;

    private final List<Long> lateness = new CopyOnWriteArrayList<>();

    @Override
    protected boolean usesSharedClient() {
        return false;
    }

    @Override
    protected void connectOnItsOwn(RedisDelayConfiguration configuration) {
        String yaml = "protocol: \"RESP3\"\nsingleServerConfig:\n  address: \"" + RedisServerExtension.redisUrl() + "\"\n";
        try {
            configuration.setRedissonConfig(Files.writeString(dir.resolve("redisson.yaml"), yaml).toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void aConsumerOverResp3DeliversEveryMessageOnTimeWithoutReportingAnOutage() throws Exception {
        try (LogLines consumerLog = LogLines.of(RedisDelayConsumer.class)) {
            ProducerTemplate producer = startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:orders").process(e -> lateness.add(System.currentTimeMillis()
                                                                         - e.getMessage().getHeader(
                                                                                 RedisDelayConstants.SCHEDULED_FOR,
                                                                                 Long.class)));
                }
            }).createProducerTemplate();

            for (int i = 1; i <= 5; i++) {
                producer.sendBodyAndHeader("redis-delay:orders", "order-" + i, RedisDelayConstants.DELAY, 400L * i);
            }

            await().atMost(Duration.ofSeconds(15)).until(() -> lateness.size() >= 5);
            assertThat(lateness).as("lateness of each delivery, ms").hasSize(5)
                    .allSatisfy(ms -> assertThat(ms).isLessThan(1000));
            assertThat(consumerLog.lines()).as("what the consumers logged").noneMatch(line -> line.startsWith("WARN"));
        }
    }

    @Test
    void aRedissonClientBeanSpeakingResp3IsRefusedAtStartNamingTheProtocol() throws Exception {
        Config config = new Config();
        config.setProtocol(Protocol.RESP3);
        config.useSingleServer().setAddress(RedisServerExtension.redisUrl());
        RedissonClient bean = Redisson.create(config);
        try (CamelContext context = new DefaultCamelContext()) {
            context.getShutdownStrategy().setTimeout(10);
            RedisDelayComponent component = new RedisDelayComponent();
            component.getConfiguration().setRedissonClient(bean);
            component.getConfiguration().setKeyPrefix(keyPrefix);
            context.addComponent("redis-delay", component);
            context.addRoutes(new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:invoices").log("${body}");
                }
            });

            assertThatThrownBy(context::start).as("a consumer that would stall on its first acknowledgement")
                    .hasStackTraceContaining("RESP3").hasStackTraceContaining("RESP2");
        } finally {
            bean.shutdown();
        }
    }
}
