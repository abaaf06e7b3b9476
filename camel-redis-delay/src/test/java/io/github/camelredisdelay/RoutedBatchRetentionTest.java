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

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import javax.management.ObjectName;

import io.github.camelredisdelay.internal.Delivery;
import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A consumer thread routes a fetched batch and fetches the next: the messages it routed (each holding its whole
 * envelope) must not stay in memory after that, whatever the visibility timeout.
 */
@CamelSide
class RoutedBatchRetentionTest extends RedisDelayTestSupport {

    private static final String QUEUE = "retained";
    private static final int MESSAGES = 500;

    @Test
    void routedBatchesAreNotKeptInMemoryUntilTheNextLeaseExtension() throws Exception {
        ProducerTemplate producer = startContext().createProducerTemplate();
        for (int i = 0; i < MESSAGES; i++) {
            producer.sendBody("redis-delay:" + QUEUE, "m" + i);
        }
        await("all due and ready").atMost(Duration.ofSeconds(10))
                .until(() -> redis().getStream(key(QUEUE, "ready")).size() == MESSAGES);

        AtomicInteger routed = new AtomicInteger();
        // leases extended every 20 s
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:" + QUEUE + "?maxMessagesPerPoll=10&visibilityTimeout=60000")
                        .process(exchange -> routed.incrementAndGet());
            }
        });
        await("all routed").atMost(Duration.ofSeconds(15)).until(() -> routed.get() == MESSAGES);

        assertThat(liveInstances(Delivery.class)).as("deliveries still in memory once all %d were routed", MESSAGES)
                .isLessThan(100);
    }

    /** The instances of {@code type} that a full garbage collection leaves (the JVM's class histogram). */
    private static long liveInstances(Class<?> type) throws Exception {
        String histogram = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                new Object[] { null }, new String[] { String[].class.getName() });
        for (String line : histogram.split("\n")) {
            String[] columns = line.trim().split("\\s+");
            if (columns.length >= 4 && columns[3].equals(type.getName())) {
                return Long.parseLong(columns[1]);
            }
        }
        return 0;
    }
}
