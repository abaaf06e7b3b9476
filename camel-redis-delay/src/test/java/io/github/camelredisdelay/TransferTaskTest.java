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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.github.camelredisdelay.test.CommandStats;
import io.github.camelredisdelay.test.ComponentThreads;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.api.redisnode.RedisNodes;
import org.redisson.config.Config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class TransferTaskTest extends RedisDelayTestSupport {

    private final Set<String> received = ConcurrentHashMap.newKeySet();

    private RouteBuilder consuming(String queue) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:" + queue).process(e -> received.add(e.getMessage().getBody(String.class)));
            }
        };
    }

    @Test
    void consumerOnlyContextStartedAfterTheDueTimeDeliversEverything() throws Exception {
        CamelContext producerNode = startContext();
        ProducerTemplate producer = producerNode.createProducerTemplate();
        // sending the 50 and stopping the node takes about 200 ms
        long dueAt = redisTimeMillis() + 1500;
        for (int i = 0; i < 50; i++) {
            producer.sendBodyAndHeader("redis-delay:orders", "order-" + i, RedisDelayConstants.DUE_AT, dueAt + i);
        }
        producerNode.stop();
        assertThat(dueSet("orders").size()).as("all scheduled, none due yet").isEqualTo(50);
        await().atMost(Duration.ofSeconds(10)).until(() -> redisTimeMillis() > dueAt + 200);
        assertThat(dueSet("orders").size()).as("nothing moved while no node ran").isEqualTo(50);

        startContext(consuming("orders"));

        await().atMost(Duration.ofSeconds(10)).until(() -> received.size() == 50);
    }

    @Test
    void producerOnlyNodeRunsTheTransferSoConsumersOfOtherNodesGetMessagesOnTime() throws Exception {
        ProducerTemplate producer = startContext().createProducerTemplate();
        producer.sendBody("redis-delay:orders?delay=200", "warm-up");
        await().atMost(Duration.ofSeconds(5)).until(() -> redis().getStream(key("orders", "ready")).size() == 1);

        producer.sendBody("redis-delay:orders?delay=300", "second");

        await().atMost(Duration.ofSeconds(5)).until(() -> redis().getStream(key("orders", "ready")).size() == 2);
    }

    @Test
    void oneTransferTaskServesEveryEndpointOfAQueue() throws Exception {
        CamelContext node = startContext(consuming("orders"), new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:a").to("redis-delay:orders?delay=100");
                from("direct:b").to("redis-delay:orders?delay=200");
                from("direct:c").to("redis-delay:payments");
            }
        });

        RedisDelayComponent component = node.getComponent("redis-delay", RedisDelayComponent.class);
        assertThat(component.runningTransferTasks()).isEqualTo(2);
        node.stop();
        assertThat(component.runningTransferTasks()).isZero();
    }

    @Test
    void stoppingTheContextStopsTheTransferTaskThreadsAndRedisTraffic() throws Exception {
        Config config = new Config();
        config.useSingleServer().setAddress(RedisServerExtension.redisUrl());
        RedissonClient sharedClient = Redisson.create(config);
        try {
            CamelContext node = new DefaultCamelContext();
            node.getRegistry().bind("redisson", sharedClient);
            node.addRoutes(new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:orders?keyPrefix=" + keyPrefix + "&transferInterval=100").process(e -> received.add("x"));
                }
            });
            node.start();
            node.createProducerTemplate().sendBody("redis-delay:orders?keyPrefix=" + keyPrefix + "&delay=100", "m");
            await().atMost(Duration.ofSeconds(10)).until(() -> received.size() == 1);

            node.stop();

            ComponentThreads.assertNoneLeftOf(node);
            Map<String, Long> before = CommandStats.calls(sharedClient);
            await().pollDelay(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(3)).until(() -> true);
            Map<String, Long> after = CommandStats.calls(sharedClient);
            assertThat(after).as("commands after stop (transferInterval is 100 ms)")
                    .containsEntry("evalsha", before.get("evalsha"))
                    .containsEntry("xreadgroup", before.get("xreadgroup"));
            assertThat(sharedClient.isShutdown()).as("a client bean is never shut down by the component").isFalse();
        } finally {
            sharedClient.shutdown();
        }
    }

    private long redisTimeMillis() {
        var time = redis().getRedisNodes(RedisNodes.SINGLE).getInstance().time();
        return time.getSeconds() * 1000L + time.getMicroseconds() / 1000;
    }
}
