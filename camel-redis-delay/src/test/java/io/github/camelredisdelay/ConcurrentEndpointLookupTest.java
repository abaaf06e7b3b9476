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

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.ConsumerTemplate;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Threads that look a URI up at once (ConsumerTemplate receivers, say) can each get an endpoint of their own from
 * Camel, all of them started: the context's stop must stop every one of them.
 */
@CamelSide
class ConcurrentEndpointLookupTest extends RedisDelayTestSupport {

    private static final int RECEIVERS = 20;
    private static final int QUEUES = 10;

    @Test
    void stoppingTheContextStopsEveryEndpointThatReceiversLookingUpOneUriAtOnceGot() throws Exception {
        CamelContext node = startContext();
        RedisDelayComponent component = node.getComponent("redis-delay", RedisDelayComponent.class);
        ConsumerTemplate consumer = node.createConsumerTemplate();
        ExecutorService receivers = Executors.newFixedThreadPool(RECEIVERS);
        try {
            for (int queue = 0; queue < QUEUES; queue++) {
                String uri = "redis-delay:idle-" + queue;
                CyclicBarrier together = new CyclicBarrier(RECEIVERS);
                List<CompletableFuture<Object>> received = new ArrayList<>();
                for (int i = 0; i < RECEIVERS; i++) {
                    received.add(CompletableFuture.supplyAsync(() -> {
                        try {
                            together.await(10, TimeUnit.SECONDS);
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                        return consumer.receiveNoWait(uri);
                    }, receivers));
                }
                CompletableFuture.allOf(received.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
            }
        } finally {
            receivers.shutdown();
            assertThat(receivers.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }

        node.stop();

        // found: an endpoint Camel created beside another of the same URI stays started after the stop, with its
        // queue's transfer task, still listening on the shared client's wake channels with its timer shut down
        assertThat(component.runningTransferTasks()).as("transfer tasks left after the context stopped").isZero();
    }
}
