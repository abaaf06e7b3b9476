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

import io.github.camelredisdelay.internal.QueueKeys;
import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.ConsumerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.redisson.api.stream.StreamConsumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * docs/key-layout.md: "A consumer leaves the group when it stops, unless it still holds messages" (and LeaseTest checks
 * it for a route's consumer). The consumer a {@code ConsumerTemplate} or {@code pollEnrich} receives through never
 * leaves: {@code RedisDelayPollingConsumer.doStop} does not retire its deliverers, so every stopped template, every
 * removed pollEnrich route, every restart leaves a member in {@code XINFO CONSUMERS} (for ten visibility timeouts).
 */
@CamelSide
class ConsumerTemplateGroupTest extends RedisDelayTestSupport {

    private List<String> members() {
        return redis().getStream(key("jobs", "ready")).listConsumers(QueueKeys.GROUP).stream()
                .map(StreamConsumer::getName).toList();
    }

    @Test
    void aStoppedConsumerTemplateLeavesTheConsumerGroup() throws Exception {
        CamelContext node = startContext();
        node.createProducerTemplate().sendBody("redis-delay:jobs", "job");
        ConsumerTemplate consumer = node.createConsumerTemplate();
        assertThat(consumer.receiveBody("redis-delay:jobs", 5000, String.class)).isEqualTo("job");
        await().atMost(Duration.ofSeconds(5)).until(() -> redis().getMap(key("jobs", "msg")).isEmpty());
        assertThat(members()).hasSize(1);

        consumer.stop();

        assertThat(members()).as("members of the consumer group after the template stopped, holding nothing").isEmpty();
    }

    @Test
    void aRemovedPollEnrichRouteLeavesTheConsumerGroup() throws Exception {
        List<String> worked = new CopyOnWriteArrayList<>();
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:take").routeId("take").pollEnrich("redis-delay:jobs", 5000)
                        .process(e -> worked.add(e.getMessage().getBody(String.class)));
            }
        });
        node.createProducerTemplate().sendBody("redis-delay:jobs", "job");
        node.createProducerTemplate().sendBody("direct:take", "take one");
        assertThat(worked).containsExactly("job");
        await().atMost(Duration.ofSeconds(5)).until(() -> redis().getMap(key("jobs", "msg")).isEmpty());
        assertThat(members()).hasSize(1);

        node.getRouteController().stopRoute("take");
        node.removeRoute("take");

        assertThat(members()).as("members of the consumer group after the pollEnrich route was removed").isEmpty();
    }
}
