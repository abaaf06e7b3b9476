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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.ConsumerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.spi.ThreadPoolFactory;
import org.apache.camel.spi.ThreadPoolProfile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A slow but healthy exchange keeps its lease whatever threads Camel's thread pool factory makes. With
 * {@code camel.threads.virtual.enabled} (Java 21 and later) they are virtual threads, which the JVM does not preempt:
 * CPU-bound exchanges on every carrier thread leave them none. The component's timers (lease extensions, transfers) run
 * on threads of their own, so a lease is extended however long the other threads wait for a processor. Here the
 * scheduled pools that Camel's factory makes for the component never get their thread: a stand-in for the starved
 * virtual threads, which a test cannot bring about on every JDK it runs on.
 */
class StarvedCamelThreadsLeaseTest extends RedisDelayTestSupport {

    /** Held while the test runs: what the starved pools' threads wait for. */
    private final CountDownLatch starvation = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void endTheStarvationAndTheExchange() {
        starvation.countDown();
        release.countDown();
    }

    @Test
    void aSlowExchangeKeepsItsLeaseWhileThePoolsCamelsFactoryMadeGetNoThread() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CamelContext node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs?visibilityTimeout=1s").process(e -> {
                    started.countDown();
                    release.await(20, TimeUnit.SECONDS);
                });
            }
        });
        ThreadPoolFactory camels = node.getExecutorServiceManager().getThreadPoolFactory();
        node.getExecutorServiceManager().setThreadPoolFactory(new StarvingThreadPoolFactory(camels));
        node.start();
        node.createProducerTemplate().sendBody("redis-delay:jobs", "slow job");
        assertThat(started.await(10, TimeUnit.SECONDS)).as("the exchange began").isTrue();

        // another node's consumer, which takes over a message whose lease expired (1 s without an extension)
        ConsumerTemplate otherNode = startContext().createConsumerTemplate();
        List<Object> takenOver = new CopyOnWriteArrayList<>();
        await("three seconds of looks").during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(6)).until(() -> {
            Object taken = otherNode.receiveBody("redis-delay:jobs?visibilityTimeout=1s", 100);
            if (taken != null) {
                takenOver.add(taken);
            }
            return true;
        });

        assertThat(takenOver).as("taken over while its exchange runs").isEmpty();
        release.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> redis().getMap(key("jobs", "msg")).isEmpty());
    }

    /**
     * Camel's factory, but the component's scheduled pools (one thread each) never get their thread: a task holds it
     * until the test ends.
     */
    private final class StarvingThreadPoolFactory implements ThreadPoolFactory {

        private final ThreadPoolFactory camels;

        StarvingThreadPoolFactory(ThreadPoolFactory camels) {
            this.camels = camels;
        }

        @Override
        public ExecutorService newCachedThreadPool(ThreadFactory threadFactory) {
            return camels.newCachedThreadPool(threadFactory);
        }

        @Override
        public ExecutorService newThreadPool(ThreadPoolProfile profile, ThreadFactory threadFactory) {
            return camels.newThreadPool(profile, threadFactory);
        }

        @Override
        public ScheduledExecutorService newScheduledThreadPool(ThreadPoolProfile profile, ThreadFactory threadFactory) {
            ScheduledExecutorService pool = camels.newScheduledThreadPool(profile, threadFactory);
            if (profile.getId().startsWith("RedisDelay")) {
                pool.execute(() -> {
                    try {
                        starvation.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
            }
            return pool;
        }
    }
}
