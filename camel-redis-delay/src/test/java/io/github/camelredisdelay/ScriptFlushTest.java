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

import io.github.camelredisdelay.embedded.RedisServerOptions;
import io.github.camelredisdelay.test.CamelNodes;
import io.github.camelredisdelay.test.MasterAndReplica;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.RoutesBuilder;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Calls after {@code SCRIPT FLUSH}: the server's script cache is empty while the client's connections, and Redisson's
 * note of which scripts each server holds, are old (as after an operator's flush, or a server that lost its cache
 * without the client noticing). Servers of its own for each test: the note is shared by every client of the JVM, so one
 * test's flush would reach into the next.
 */
class ScriptFlushTest {

    private static final String PREFIX = "flush";

    @RegisterExtension
    final MasterAndReplica servers = new MasterAndReplica(RedisServerOptions.defaults());

    private final List<String> delivered = new CopyOnWriteArrayList<>();
    private final CamelNodes nodes = new CamelNodes();

    @AfterEach
    void stopNodes() {
        nodes.close();
    }

    private ProducerTemplate producer(RoutesBuilder... routes) throws Exception {
        return nodes.start(options -> {
            options.setAddress(servers.master().uri());
            options.setKeyPrefix(PREFIX);
        }, routes).createProducerTemplate();
    }

    @Test
    void aScheduleWithSyncReplicasSucceedsAfterTheServersScriptCacheIsFlushed() throws Exception {
        ProducerTemplate producer = producer();
        String uri = "redis-delay:synced?delay=1h&syncReplicas=1";
        producer.sendBodyAndHeader(uri, "x", RedisDelayConstants.MESSAGE_ID, "before");

        servers.master().command("SCRIPT", "FLUSH");

        await().atMost(Duration.ofSeconds(5)).ignoreExceptions()
                .untilAsserted(() -> producer.sendBodyAndHeader(uri, "x", RedisDelayConstants.MESSAGE_ID, "after"));
        assertThat(servers.replica().command("HEXISTS", PREFIX + ":{synced}:msg", "after")).isEqualTo("1");
    }

    @Test
    void aConsumerAcknowledgesAMessageScheduledAfterTheServersScriptCacheIsFlushedWithinSeconds() throws Exception {
        assertAcknowledgedWithinSecondsAcrossAFlush("consumed", "");
    }

    @Test
    void aConsumerWithSyncReplicasAcknowledgesAMessageScheduledAfterTheServersScriptCacheIsFlushed() throws Exception {
        assertAcknowledgedWithinSecondsAcrossAFlush("consumedsynced", "?syncReplicas=1");
    }

    /**
     * A consumer of {@code queue} with {@code consumerOptions} delivers a message, Redis' script cache is flushed, and
     * a message scheduled then is delivered once and acknowledged within seconds.
     */
    private void assertAcknowledgedWithinSecondsAcrossAFlush(String queue, String consumerOptions) throws Exception {
        String uri = "redis-delay:" + queue;
        ProducerTemplate producer = producer(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri + consumerOptions)
                        .process(e -> delivered.add(e.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID, String.class)));
            }
        });
        producer.sendBodyAndHeader(uri, "x", RedisDelayConstants.MESSAGE_ID, "before");
        await().atMost(Duration.ofSeconds(10)).until(() -> delivered.contains("before") && acknowledged(queue));

        servers.master().command("SCRIPT", "FLUSH");
        producer.sendBodyAndHeader(uri, "x", RedisDelayConstants.MESSAGE_ID, "after");

        // an acknowledgement takes a fraction of a second; 5 s leaves out one sent only by the consumer's next take-over
        // check, half the visibility timeout (15 s) later
        await().atMost(Duration.ofSeconds(5)).until(() -> delivered.contains("after") && acknowledged(queue));
        assertThat(delivered).as("each delivered once").containsExactly("before", "after");
    }

    /** Whether every message of {@code queue} has been acknowledged (and so removed). */
    private boolean acknowledged(String queue) {
        return "0".equals(servers.master().command("HLEN", PREFIX + ":{" + queue + "}:msg"));
    }
}
