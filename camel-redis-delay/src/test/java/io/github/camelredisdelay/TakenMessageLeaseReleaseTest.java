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

import io.github.camelredisdelay.internal.QueueKeys;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.redisson.api.RStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A message {@code pollEnrich} takes keeps its lease alive while the taker's route runs; once that route succeeded and
 * the message is acknowledged, its lease is released too: the consumer that took it then holds nothing, and leaves the
 * consumer group at its stop rather than staying listed there, extending a lease that no longer exists.
 */
class TakenMessageLeaseReleaseTest extends RedisDelayTestSupport {

    @Test
    void aConsumerWhoseTakenMessageWasAcknowledgedLeavesTheConsumerGroupAtItsStop() throws Exception {
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:take").pollEnrich("redis-delay:jobs?visibilityTimeout=1s", 5000);
            }
        });
        var producer = node.createProducerTemplate();
        producer.sendBody("redis-delay:jobs", "job");
        RStream<String, String> ready = redis().getStream(key("jobs", "ready"));
        await().atMost(Duration.ofSeconds(5)).until(() -> ready.size() == 1);

        assertThat(producer.requestBody("direct:take", null, String.class)).isEqualTo("job");
        await("acknowledged").atMost(Duration.ofSeconds(5)).until(() -> redis().getMap(key("jobs", "msg")).isEmpty());
        assertThat(ready.listConsumers(QueueKeys.GROUP)).hasSize(1);

        node.stop();

        await("left the group").atMost(Duration.ofSeconds(5))
                .until(() -> ready.listConsumers(QueueKeys.GROUP).isEmpty());
    }
}
