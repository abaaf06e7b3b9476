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

import io.github.camelredisdelay.embedded.RedisServerOptions;
import io.github.camelredisdelay.test.CamelNodes;
import io.github.camelredisdelay.test.MasterAndReplica;
import org.apache.camel.ProducerTemplate;
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

    private final CamelNodes nodes = new CamelNodes();

    @AfterEach
    void stopNodes() {
        nodes.close();
    }

    private ProducerTemplate producer() throws Exception {
        return nodes.start(options -> {
            options.setAddress(servers.master().uri());
            options.setKeyPrefix(PREFIX);
        }).createProducerTemplate();
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
}
