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

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.internal.ShardTags;
import io.github.camelredisdelay.test.HealthChecks;
import io.github.camelredisdelay.test.ProcessSignals;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.health.HealthCheck;
import org.apache.camel.health.HealthCheckHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The readiness of a sharded queue whose shard on one master does not answer (SIGSTOP, its replica kept from failing
 * over) says which shard: the operator has to find the master to look at among several.
 */
class ClusterShardHealthTest extends ClusterTestSupport {

    private static final String SHARDED = "spread";

    private RedisServerProcess silent;
    private RedisServerProcess replica;
    private CamelContext node;

    @AfterEach
    void resumeAndRestoreCoverage() throws Exception {
        if (silent != null) {
            ProcessSignals.resume(silent);
        }
        if (node != null) {
            node.stop();
        }
        cluster.nodes().forEach(server -> server.command("CONFIG", "SET", "cluster-require-full-coverage", "yes"));
        if (replica != null) {
            replica.command("CONFIG", "SET", "cluster-replica-no-failover", "no");
        }
    }

    @Test
    void theDownMessageOfAShardedQueueNamesTheShardThatDoesNotAnswer() throws Exception {
        List<String> tags = ShardTags.of(SHARDED, 3);
        assertThat(tags.stream().map(ClusterTestSupport::masterOf).distinct()).hasSize(3);
        silent = masterOf(tags.get(2));
        replica = cluster.replicaOf(silent);
        cluster.nodes().forEach(server -> server.command("CONFIG", "SET", "cluster-require-full-coverage", "no"));
        replica.command("CONFIG", "SET", "cluster-replica-no-failover", "yes");
        node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:" + SHARDED + "?shards=3").routeId(SHARDED).log("${body}");
            }
        });
        HealthChecks.enableConsumersAndProducers(node);
        node.start();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> HealthChecks.readiness(node).get("consumer:" + SHARDED) == HealthCheck.State.UP);

        ProcessSignals.pause(silent);

        HealthCheck.Result down = await().atMost(Duration.ofSeconds(20)).until(this::shardedReadiness,
                result -> result.getState() == HealthCheck.State.DOWN);
        assertThat(down.getMessage()).as("the DOWN message").get().asString().contains("queue " + SHARDED)
                .contains(tags.get(2));
    }

    private HealthCheck.Result shardedReadiness() {
        Optional<HealthCheck.Result> result = HealthCheckHelper.invokeReadiness(node, "full").stream()
                .filter(r -> r.getCheck().getId().equals("consumer:" + SHARDED)).findFirst();
        return result.orElseThrow();
    }
}
