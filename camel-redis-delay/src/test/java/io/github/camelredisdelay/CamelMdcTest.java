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

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.main.Main;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.MDC;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The camel-mdc recipe of the component page and docs/operating.md: with {@code camel.mdc.enabled=true} and
 * {@code camel.mdc.customHeaders=CamelRedisDelayMessageId,CamelRedisDelayQueue}, the delivered message's id and queue
 * are in the MDC of the consumer route's processors, under the header names.
 */
@CamelSide
@ExtendWith(RedisServerExtension.class)
class CamelMdcTest {

    private final List<String> seen = new CopyOnWriteArrayList<>();

    @Test
    void camelMdcPutsTheDeliveredMessagesIdAndQueueIntoTheMdc() throws Exception {
        Main main = new Main();
        main.addInitialProperty("camel.component.redis-delay.address", RedisServerExtension.redisUrl());
        main.addInitialProperty("camel.component.redis-delay.key-prefix", "camel-mdc");
        main.addInitialProperty("camel.mdc.enabled", "true");
        main.addInitialProperty("camel.mdc.customHeaders", "CamelRedisDelayMessageId,CamelRedisDelayQueue");
        main.configure().addRoutesBuilder(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs").routeId("jobs")
                        .process(e -> seen.add(MDC.get("CamelRedisDelayMessageId") + "/" + MDC.get("CamelRedisDelayQueue")));
            }
        });
        try {
            main.start();
            main.getCamelContext().createProducerTemplate().sendBodyAndHeader("redis-delay:jobs", "a",
                    RedisDelayConstants.MESSAGE_ID, "job-a");

            await().atMost(Duration.ofSeconds(10)).until(() -> !seen.isEmpty());
            assertThat(seen).containsExactly("job-a/jobs");
        } finally {
            main.stop();
        }
    }
}
