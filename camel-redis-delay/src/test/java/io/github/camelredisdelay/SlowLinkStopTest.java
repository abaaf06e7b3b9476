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
import java.util.stream.IntStream;

import io.github.camelredisdelay.internal.QueueKeys;
import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.SlowLinkTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A CamelContext with a consumer route on each of many queues stops while its Redis is far away. Each consumer leaves
 * its queue's consumer group at its stop; waiting a round trip for that, one consumer after another, made the stop of a
 * context take one round trip per queue.
 */
@CamelSide
class SlowLinkStopTest extends SlowLinkTestSupport {

    private static final Duration ROUND_TRIP = Duration.ofMillis(300);
    private static final int QUEUES = 20;

    private final List<String> delivered = new CopyOnWriteArrayList<>();

    @Test
    void aContextOfManyQueuesStopsInAboutARoundTripAndStillAcknowledgesAndLeaves() throws Exception {
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                IntStream.range(0, QUEUES).forEach(i -> from("redis-delay:far" + i).process(e -> delivered.add("far" + i)));
            }
        });
        ProducerTemplate producer = context.createProducerTemplate();
        IntStream.range(0, QUEUES).forEach(i -> producer.sendBody("redis-delay:far" + i, "job"));
        link.roundTrip(ROUND_TRIP);
        await().atMost(Duration.ofSeconds(20)).until(() -> delivered.size() == QUEUES);

        long stopping = System.nanoTime();
        context.stop();
        Duration stop = Duration.ofNanos(System.nanoTime() - stopping);

        // the component's own bound on waiting for leaves (2 s), plus a round trip and Camel's own stop
        assertThat(stop).as("stop of %d queues through a %s ms round trip", QUEUES, ROUND_TRIP.toMillis())
                .isLessThan(Duration.ofSeconds(3));
        for (int i = 0; i < QUEUES; i++) {
            String queue = "far" + i;
            assertThat(redis().getMap(key(queue, "msg")).size()).as("messages left on %s", queue).isZero();
            assertThat(redis().getStream(key(queue, "ready")).listConsumers(QueueKeys.GROUP)).as("consumers of %s", queue)
                    .isEmpty();
        }
        assertThat(delivered).hasSize(QUEUES);
    }
}
