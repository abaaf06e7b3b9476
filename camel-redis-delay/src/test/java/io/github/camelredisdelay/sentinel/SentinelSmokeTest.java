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
package io.github.camelredisdelay.sentinel;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.RedisDelayConstants;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The component configured with a Redisson Sentinel YAML file schedules, delivers and cancels; no failover. */
class SentinelSmokeTest extends SentinelTestSupport {

    private static final String URI = "redis-delay:smoke";

    @Test
    void scheduleDeliverAndCancelWorkThroughTheSentinels() throws Exception {
        long started = System.nanoTime();
        List<String> delivered = new CopyOnWriteArrayList<>();
        ProducerTemplate producer = startNode(new RouteBuilder() {
            @Override
            public void configure() {
                from(URI).process(e -> delivered.add(e.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID,
                        String.class)));
            }
        }).createProducerTemplate();

        schedule(producer, "first", 200);
        schedule(producer, "cancelled", 600);
        Object cancelled = producer.requestBodyAndHeader(URI + "?operation=cancel", null,
                RedisDelayConstants.MESSAGE_ID, "cancelled");
        // due after the cancelled one: once it arrives, the cancelled one would have arrived before it
        schedule(producer, "last", 1_000);

        await("the last message delivered").atMost(Duration.ofSeconds(10)).until(() -> delivered.contains("last"));
        assertThat(cancelled).isEqualTo(true);
        assertThat(delivered).containsExactly("first", "last");
        int distinct = (int) delivered.stream().distinct().count();
        ResultsFile.append("sentinel: schedule, deliver, cancel (no failover)", redisVersion(), 2, distinct,
                delivered.size() - distinct, 2 - distinct, Duration.ofNanos(System.nanoTime() - started),
                "cancelled=" + cancelled);
    }

    private static void schedule(ProducerTemplate producer, String id, long delayMillis) {
        producer.sendBodyAndHeaders(URI, "body of " + id,
                Map.of(RedisDelayConstants.MESSAGE_ID, id, RedisDelayConstants.DELAY, delayMillis));
    }

    /** Redisson's own error names neither the master name nor the Sentinels asked: the component's does. */
    @Test
    void aMasterNameNoSentinelMonitorsFailsNamingItAndTheSentinels() throws Exception {
        CamelContext node = createNodeForMaster("no-such-master", new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:in").to(URI + "?delay=1h");
            }
        });
        node.start();

        Exchange sent = node.createProducerTemplate().send("direct:in", e -> e.getMessage().setBody("x"));

        assertThat(sent.getException()).hasMessageContaining("'no-such-master'").hasMessageContaining("masterName")
                .hasMessageContaining(deployment().sentinelAddresses().get(0));
    }
}
