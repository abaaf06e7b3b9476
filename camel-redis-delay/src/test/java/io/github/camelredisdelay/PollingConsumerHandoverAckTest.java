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
import java.util.concurrent.atomic.AtomicInteger;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.awaitility.Awaitility.await;

/**
 * A message handed to a {@code seda:} route is acknowledged when that route is done with it. The blocking consumer
 * sends that acknowledgement within about a second (its next read); a {@code consumerType=polling} consumer keeps it
 * until its next poll, {@code pollInterval} later: meanwhile the message stays in Redis, counted in flight, and a crash
 * of the node delivers it a second time although its work completed long before.
 */
@CamelSide
class PollingConsumerHandoverAckTest extends RedisDelayTestSupport {

    private final AtomicInteger worked = new AtomicInteger();

    @ParameterizedTest
    @ValueSource(strings = { "consumerType=blocking", "consumerType=polling&pollInterval=30s" })
    void aMessageWhoseSedaRouteIsDoneIsAcknowledgedWithinSeconds(String consumer) throws Exception {
        // scheduled first: a polling consumer's first poll, at its start, finds it
        ProducerTemplate producer = startContext().createProducerTemplate();
        producer.sendBodyAndHeader("redis-delay:orders", "order-1", RedisDelayConstants.MESSAGE_ID, "order-1");
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders?" + consumer).to("seda:work");
                from("seda:work").delay(300).process(e -> worked.incrementAndGet());
            }
        });

        await().atMost(Duration.ofSeconds(10)).until(() -> worked.get() == 1);
        await("order-1 acknowledged after its work ended").atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(100)).until(() -> redis().getMap(key("orders", "msg")).isEmpty());
    }
}
