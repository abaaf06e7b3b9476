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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.StatefulService;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A consumer stopped alone and started again (as JMX's stop and start operations of a consumer do) while an exchange
 * deaf to the stop's interrupt still runs on one of its threads.
 */
@CamelSide
class ConsumerRestartWithDeafExchangeTest extends RedisDelayTestSupport {

    @Test
    void aConsumerStartedAgainRoutesNoMoreMessagesAtOnceThanConcurrentConsumers() throws Exception {
        CountDownLatch deafStarted = new CountDownLatch(1);
        AtomicBoolean releaseDeaf = new AtomicBoolean();
        AtomicInteger running = new AtomicInteger();
        AtomicInteger mostAtOnce = new AtomicInteger();
        List<String> delivered = new CopyOnWriteArrayList<>();
        Set<String> threads = ConcurrentHashMap.newKeySet();
        CamelContext node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs?concurrentConsumers=1&maxMessagesPerPoll=1").routeId("jobs").process(e -> {
                    String body = e.getMessage().getBody(String.class);
                    mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
                    try {
                        delivered.add(body);
                        threads.add(Thread.currentThread().getName());
                        if ("deaf".equals(body)) {
                            deafStarted.countDown();
                            // work deaf to interrupts (a driver call, say) that outlasts the stop
                            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                            while (!releaseDeaf.get() && System.nanoTime() - end < 0) {
                                Thread.interrupted();
                                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
                            }
                        } else {
                            TimeUnit.MILLISECONDS.sleep(700);
                        }
                    } finally {
                        running.decrementAndGet();
                    }
                });
            }
        });
        node.getShutdownStrategy().setTimeout(1);
        node.start();
        ProducerTemplate producer = node.createProducerTemplate();
        producer.sendBody("redis-delay:jobs", "deaf");
        assertThat(deafStarted.await(10, TimeUnit.SECONDS)).isTrue();

        // stopped alone and started again, as JMX does; the stop gives up on the deaf exchange, which goes on
        StatefulService consumer = (StatefulService) node.getRoute("jobs").getConsumer();
        consumer.stop();
        assertThat(running.get()).as("the deaf exchange still runs").isEqualTo(1);
        consumer.start();
        releaseDeaf.set(true);
        await().atMost(Duration.ofSeconds(10)).until(() -> running.get() == 0);
        mostAtOnce.set(0);
        threads.clear();

        List<String> bodies = List.of("a", "b", "c", "d");
        for (String body : bodies) {
            producer.sendBody("redis-delay:jobs", body);
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> delivered.containsAll(bodies));
        await().atMost(Duration.ofSeconds(10)).until(() -> running.get() == 0);

        assertThat(mostAtOnce.get()).as("exchanges routed at once with concurrentConsumers=1, on threads %s", threads)
                .isEqualTo(1);
    }
}
