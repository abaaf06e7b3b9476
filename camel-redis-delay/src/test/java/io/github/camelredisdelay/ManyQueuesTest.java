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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One CamelContext with a consumer route on each of many queues (a queue per tenant): every message arrives on time,
 * the component's Redis connections stay bounded whatever the number of queues, threads grow by the one consumer thread
 * per route and no more, and the context stops within seconds.
 */
class ManyQueuesTest extends RedisDelayTestSupport {

    private static final long DELAY_MS = 2000;
    /** How late a message may arrive on a busy two-core machine; a parked connection or missed wake-up costs more. */
    private static final long LATENESS_BOUND_MS = 2500;

    /** The name the component's client gives its connections, so that only they are counted. */
    private static final String CLIENT_NAME = "many-queues-test";

    @TempDir
    Path configDir;

    @Override
    protected boolean usesSharedClient() {
        // the component's own client, with Redisson's default pool sizes, is what a user gets
        return false;
    }

    @Override
    protected void connectOnItsOwn(RedisDelayConfiguration configuration) {
        // Redisson's defaults but for a client name: other clients of the JVM may connect while a run counts
        String yaml = "singleServerConfig:\n  address: \"" + RedisServerExtension.redisUrl() + "\"\n  clientName: \""
                      + CLIENT_NAME + "\"\n";
        try {
            configuration.setRedissonConfig(Files.writeString(configDir.resolve("redisson.yaml"), yaml).toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void aHundredQueuesWithAConsumerEachDeliverOnTimeOnBoundedConnectionsAndThreads() throws Exception {
        Figures figures = run(100);
        assertThat(figures.stopMs()).isLessThan(5000);
    }

    @Test
    @Tag("slow")
    void aThousandQueuesWithAConsumerEachDeliverOnTimeOnBoundedConnectionsAndThreads() throws Exception {
        run(10);
        Figures figures = run(1000);
        assertThat(figures.stopMs()).isLessThan(5000);
    }

    record Figures(int queues, long connections, int threadsAdded, long maxLatenessMs, long stopMs) {
    }

    private Figures run(int queues) throws Exception {
        int threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();
        Map<String, Long> arrivals = new ConcurrentHashMap<>();
        String prefix = "tenant" + queues + "-";
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:schedule").toD("redis-delay:${header.queue}?delay=" + DELAY_MS);
                for (int i = 0; i < queues; i++) {
                    String queue = prefix + i;
                    from("redis-delay:" + queue).routeId(queue)
                            .process(exchange -> arrivals.put(queue, System.currentTimeMillis()));
                }
            }
        });
        ProducerTemplate producer = context.createProducerTemplate();
        Map<String, Long> dueAt = new ConcurrentHashMap<>();
        for (int i = 0; i < queues; i++) {
            String queue = prefix + i;
            dueAt.put(queue, System.currentTimeMillis() + DELAY_MS);
            // throws if the producer cannot get a connection while every consumer waits for messages
            producer.sendBodyAndHeader("direct:schedule", "hello " + queue, "queue", queue);
        }
        await("every queue's message").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> arrivals.size() == queues);
        long maxLateness = dueAt.entrySet().stream()
                .mapToLong(due -> arrivals.get(due.getKey()) - due.getValue()).max().orElse(0);
        long connections = connections();
        int threadsAdded = ManagementFactory.getThreadMXBean().getThreadCount() - threadsBefore;

        long start = System.nanoTime();
        context.stop();
        Figures figures = new Figures(queues, connections, threadsAdded, maxLateness, (System.nanoTime() - start) / 1_000_000);
        System.out.println("[many-queues] " + figures);

        assertThat(maxLateness).as("latest delivery after its due time (ms)").isLessThan(LATENESS_BOUND_MS);
        if (connections >= 0) {
            // Redisson's defaults: a command pool of 64 and a few subscription connections, whatever the queues
            assertThat(connections).as("connections of the component's client").isBetween(1L, 64L + 10);
        }
        // one consumer thread per route; Redisson's and Camel's own threads are a constant on top
        assertThat(threadsAdded).as("threads added by the context").isLessThanOrEqualTo(queues + 100);
        return figures;
    }

    /**
     * Connections of the component's client to the test server, or -1 when it is not the private process (then not
     * asserted).
     */
    private static long connections() {
        return RedisServerExtension.process()
                .map(process -> process.command("CLIENT", "LIST").lines()
                        .filter(line -> line.contains(" name=" + CLIENT_NAME + " ")).count())
                .orElse(-1L);
    }
}
