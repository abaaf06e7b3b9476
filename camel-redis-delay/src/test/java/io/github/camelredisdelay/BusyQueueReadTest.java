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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.api.redisnode.RedisNode;
import org.redisson.api.redisnode.RedisNodes;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * While a queue is busy its consumer waits for the next message in a read that blocks in Redis (no notice hop); an idle
 * queue's consumer holds no connection; and the blocking reads of one client stay bounded, whatever the busy queues: to
 * eight, and to a quarter of a smaller pool.
 */
class BusyQueueReadTest extends RedisDelayTestSupport {

    private static final int SENDS = 20;
    private static final long SEND_EVERY_MS = 50;

    private int blockedClients() {
        return Integer.parseInt(redis().getRedisNodes(RedisNodes.SINGLE).getInstance().info(RedisNode.InfoSection.CLIENTS)
                .get("blocked_clients"));
    }

    private RouteBuilder consumersOf(List<String> queues, AtomicInteger received) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                queues.forEach(queue -> from("redis-delay:" + queue).process(e -> received.incrementAndGet()));
            }
        };
    }

    /** Sends one message to each queue every {@value #SEND_EVERY_MS} ms, and returns the most blocked clients seen. */
    private int sendWhileCountingBlockedClients(ProducerTemplate producer, List<String> queues) throws InterruptedException {
        int mostBlocked = 0;
        for (int i = 0; i < SENDS; i++) {
            for (String queue : queues) {
                producer.sendBody("redis-delay:" + queue, "m" + i);
            }
            TimeUnit.MILLISECONDS.sleep(SEND_EVERY_MS);
            mostBlocked = Math.max(mostBlocked, blockedClients());
        }
        return mostBlocked;
    }

    @Test
    void aBusyQueuesConsumerWaitsInARedisReadAndAnIdleQueuesConsumerHoldsNoConnection() throws Exception {
        int blockedBefore = blockedClients();
        AtomicInteger received = new AtomicInteger();
        ProducerTemplate producer = startContext(consumersOf(List.of("orders"), received)).createProducerTemplate();

        int mostBlocked = sendWhileCountingBlockedClients(producer, List.of("orders"));

        await().atMost(Duration.ofSeconds(10)).until(() -> received.get() == SENDS);
        assertThat(mostBlocked - blockedBefore).as("the consumer of the busy queue blocked in Redis").isEqualTo(1);
        await("the idle queue's consumer leaves Redis").atMost(Duration.ofSeconds(5))
                .until(() -> blockedClients() == blockedBefore);
    }

    @Test
    void atMostEightReadsOfOneClientBlockInRedisAtOnce() throws Exception {
        assertAtMostEightBlockWhileBusy(IntStream.range(0, 12).mapToObj(i -> "q" + i).toList());
    }

    @Test
    void theEightAreSharedByEveryKeyPrefixOfTheClient() throws Exception {
        // one client (the test's client bean), two key prefixes of this test, eight queues each
        assertAtMostEightBlockWhileBusy(IntStream.range(0, 16)
                .mapToObj(i -> "q" + i + (i % 2 == 0 ? "" : "?keyPrefix=" + keyPrefix + "-other")).toList());
    }

    @Test
    void aClientWithASmallPoolLetsAQuarterOfItsConnectionsBlock() throws Exception {
        Config config = new Config();
        config.setCodec(StringCodec.INSTANCE);
        config.useSingleServer().setAddress(RedisServerExtension.redisUrl()).setConnectionPoolSize(8)
                .setConnectionMinimumIdleSize(1);
        RedissonClient small = Redisson.create(config);
        try {
            assertAtMostSoManyBlockWhileBusy(IntStream.range(0, 12).mapToObj(i -> "q" + i).toList(), small, 2);
        } finally {
            small.shutdown();
        }
    }

    /** Keeps every queue busy, with a consumer each: some reads block in Redis, never more than eight at once. */
    private void assertAtMostEightBlockWhileBusy(List<String> queues) throws Exception {
        assertAtMostSoManyBlockWhileBusy(queues, null, 8);
    }

    /** As above, on {@code client} (null: the test's shared one), with at most {@code most} reads blocking at once. */
    private void assertAtMostSoManyBlockWhileBusy(List<String> queues, RedissonClient client, int most) throws Exception {
        int blockedBefore = blockedClients();
        AtomicInteger received = new AtomicInteger();
        CamelContext context = createContext(consumersOf(queues, received));
        if (client != null) {
            context.getComponent("redis-delay", RedisDelayComponent.class).getConfiguration().setRedissonClient(client);
        }
        context.start();
        ProducerTemplate producer = context.createProducerTemplate();

        int mostBlocked = sendWhileCountingBlockedClients(producer, queues);

        await().atMost(Duration.ofSeconds(20)).until(() -> received.get() == SENDS * queues.size());
        assertThat(mostBlocked - blockedBefore).isBetween(1, most);
        context.stop();
        await().atMost(Duration.ofSeconds(5)).until(() -> blockedClients() == blockedBefore);
    }
}
