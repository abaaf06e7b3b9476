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
import org.apache.camel.CamelContext;
import org.apache.camel.FailedToStartRouteException;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class CompetingConsumersTest extends RedisDelayTestSupport {

    private RouteBuilder consumingInto(List<String> into) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders?concurrentConsumers=2").process(e -> into.add(e.getMessage().getBody(String.class)));
            }
        };
    }

    @Test
    void twoContextsOnOneQueueReceiveEachMessageExactlyOnce() throws Exception {
        List<String> nodeA = new CopyOnWriteArrayList<>();
        List<String> nodeB = new CopyOnWriteArrayList<>();
        ProducerTemplate producer = startContext(consumingInto(nodeA)).createProducerTemplate();
        startContext(consumingInto(nodeB));

        for (int i = 0; i < 300; i++) {
            producer.sendBody("redis-delay:orders?delay=" + (i % 10) * 50, "m" + i);
        }

        await().atMost(Duration.ofSeconds(20)).until(() -> nodeA.size() + nodeB.size() >= 300);
        List<String> all = new CopyOnWriteArrayList<>(nodeA);
        all.addAll(nodeB);
        assertThat(all).hasSize(300).doesNotHaveDuplicates();
        await().pollDelay(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> true);
        assertThat(nodeA.size() + nodeB.size()).as("no late duplicates").isEqualTo(300);
        assertThat(nodeA).as("node A took part").isNotEmpty();
        assertThat(nodeB).as("node B took part").isNotEmpty();
    }

    /**
     * One endpoint URI has one consuming route per CamelContext, as Camel decides for an endpoint without
     * {@code MultipleConsumersSupport}: a second fails its start naming the endpoint (more consumers of the queue in
     * one context are {@code concurrentConsumers}).
     */
    @Test
    void aSecondRouteConsumingTheSameUriInOneContextFailsToStartNamingIt() throws Exception {
        CamelContext context = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders").routeId("expire").log("${body}");
                from("redis-delay:orders").routeId("remind").log("${body}");
            }
        });

        assertThatThrownBy(context::start).isInstanceOf(FailedToStartRouteException.class)
                .hasMessageContaining("remind").hasMessageContaining("Multiple consumers for the same endpoint")
                .hasMessageContaining("redis-delay://orders");
    }
}
