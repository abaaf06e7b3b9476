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

import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.Message;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An {@code Error} a route throws past Camel's error handling is what the retried delivery's last error names first,
 * not the {@code CamelExecutionException} Camel keeps it wrapped in.
 */
class ErrorLastErrorTest extends RedisDelayTestSupport {

    @ParameterizedTest
    @ValueSource(strings = { "asyncConsumer=false", "asyncConsumer=true", "consumerType=polling&pollInterval=100" })
    void theLastErrorOfAnErrorThrownByTheRouteNamesTheErrorItself(String consumer) throws Exception {
        List<Message> deliveries = new CopyOnWriteArrayList<>();
        var producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs?retrySchedule=50&visibilityTimeout=20s&" + consumer)
                        .process(e -> deliveries.add(e.getMessage().copy())).process(e -> {
                            if (deliveries.size() == 1) {
                                throw new StackOverflowError("poison");
                            }
                        });
            }
        }).createProducerTemplate();

        producer.sendBody("redis-delay:jobs", "job-1");

        await("retried on its retrySchedule").atMost(Duration.ofSeconds(10)).until(() -> deliveries.size() >= 2);
        assertThat(deliveries.get(1).getHeader(RedisDelayConstants.LAST_ERROR, String.class))
                .startsWith("java.lang.StackOverflowError: poison");
    }
}
