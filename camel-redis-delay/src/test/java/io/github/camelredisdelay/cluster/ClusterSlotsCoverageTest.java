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
package io.github.camelredisdelay.cluster;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.test.CamelNodes;
import org.apache.camel.CamelExecutionException;
import org.apache.camel.ProducerTemplate;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * docs/cluster.md: a cluster with a slot no master serves (here with cluster-require-full-coverage no, so Redis itself
 * serves the other slots) fails every queue of a client with Redisson's default checkSlotsCoverage, until the slot is
 * served again; with checkSlotsCoverage: false, queues on served slots work.
 */
class ClusterSlotsCoverageTest extends ClusterTestSupport {

    private static final String URI = "redis-delay:orders?delay=1h";

    @Test
    void aSlotNoMasterServesFailsEveryQueueOfADefaultClientUntilItIsServedAgain() throws Exception {
        RedisServerProcess owner = unserveLastSlot();
        ProducerTemplate defaultClient = startContext().createProducerTemplate();

        assertThatThrownBy(() -> defaultClient.sendBody(URI, "refused")).isInstanceOf(CamelExecutionException.class)
                .rootCause().hasMessageContaining("Not all slots covered")
                .hasMessageContaining("checkSlotsCoverage = false");

        try (CamelNodes nodes = new CamelNodes()) {
            Path lenient = RedissonClusterYaml.write(cluster.nodeAddresses());
            Files.writeString(lenient, Files.readString(lenient) + "  checkSlotsCoverage: false\n");
            ProducerTemplate lenientClient = nodes.start(options -> {
                options.setRedissonConfig("file:" + lenient);
                options.setKeyPrefix(keyPrefix);
            }).createProducerTemplate();
            lenientClient.sendBody(URI, "stored");
            Files.delete(lenient);
        }

        owner.command("CLUSTER", "ADDSLOTS", LAST_SLOT);
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
            defaultClient.sendBody(URI, "stored once the slot is served");
            return true;
        });
        assertThat(masterOf("orders").command("HLEN", key("orders", "msg"))).isEqualTo("2");
    }
}
