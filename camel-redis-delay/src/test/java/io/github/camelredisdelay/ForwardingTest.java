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
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.support.DefaultHeaderFilterStrategy;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class ForwardingTest extends RedisDelayTestSupport {

    @Test
    void forwardedMessageReallyWaitsTheSecondQueuesDelay() throws Exception {
        Map<String, Long> arrivedAt = new ConcurrentHashMap<>();
        Map<String, Object> idOnB = new ConcurrentHashMap<>();
        var producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:a").process(e -> arrivedAt.put("a", System.currentTimeMillis()))
                        .to("redis-delay:b?delay=2s");
                from("redis-delay:b").process(e -> {
                    arrivedAt.put("b", System.currentTimeMillis());
                    idOnB.put("id", e.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID));
                });
            }
        }).createProducerTemplate();

        Object id = producer.send("redis-delay:a?delay=100", e -> e.getMessage().setBody("x"))
                .getMessage().getHeader(RedisDelayConstants.MESSAGE_ID);

        await().atMost(Duration.ofSeconds(10)).until(() -> arrivedAt.containsKey("b"));
        assertThat(arrivedAt.get("b") - arrivedAt.get("a")).isBetween(2000L, 3000L);
        assertThat(idOnB.get("id")).as("the message id carries over").isEqualTo(id);
    }

    @Test
    void controlHeadersNeitherTravelNorChangeTheForwardWithAHeaderFilterThatKeepsCamelsHeaders() throws Exception {
        Map<String, Long> arrivedAt = new ConcurrentHashMap<>();
        Map<String, Object> headersOnA = new ConcurrentHashMap<>();
        CamelContext node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:a?headerFilterStrategy=#keepAll").process(e -> {
                    arrivedAt.put("a", System.currentTimeMillis());
                    headersOnA.putAll(e.getMessage().getHeaders());
                }).to("redis-delay:b?delay=2s&headerFilterStrategy=#keepAll");
                from("redis-delay:b?headerFilterStrategy=#keepAll")
                        .process(e -> arrivedAt.put("b", System.currentTimeMillis()));
            }
        });
        // filters nothing, so Camel's own headers (CamelFileName) travel with the message
        DefaultHeaderFilterStrategy keepAll = new DefaultHeaderFilterStrategy();
        keepAll.setOutFilterStartsWith((String[]) null);
        keepAll.setInFilterStartsWith((String[]) null);
        node.getRegistry().bind("keepAll", keepAll);
        node.start();

        node.createProducerTemplate().sendBodyAndHeaders("redis-delay:a?headerFilterStrategy=#keepAll", "order-1",
                Map.of(RedisDelayConstants.DELAY, "100", RedisDelayConstants.OPERATION, "schedule", "CamelFileName",
                        "order-1.json"));

        await().atMost(Duration.ofSeconds(10)).until(() -> arrivedAt.containsKey("b"));
        assertThat(headersOnA).containsEntry("CamelFileName", "order-1.json")
                .doesNotContainKeys(RedisDelayConstants.DELAY, RedisDelayConstants.OPERATION);
        assertThat(arrivedAt.get("b") - arrivedAt.get("a")).as("ms between the deliveries from a and from b?delay=2s")
                .isBetween(2000L, 3000L);
    }
}
