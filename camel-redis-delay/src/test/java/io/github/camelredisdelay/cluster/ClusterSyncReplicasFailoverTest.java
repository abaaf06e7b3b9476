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
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.github.camelredisdelay.NotReplicatedException;
import io.github.camelredisdelay.RedisDelayConstants;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.internal.ShardTags;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code syncReplicas=1} on a sharded queue whose masters have one replica each, as docs/cluster.md describes it: a
 * failover leaves the promoted replica without a replica of its own, so the schedules of its shard fail with
 * {@link NotReplicatedException} naming the shard's hash tag, while the other shards' succeed and are delivered; once
 * the old master is back, as the new one's replica, its shard's schedules succeed again.
 */
@Tag("slow")
class ClusterSyncReplicasFailoverTest extends ClusterTestSupport {

    private static final String QUEUE = "synced";
    private static final int SHARDS = 3;
    private static final Duration PROMOTION_TIMEOUT = Duration.ofSeconds(30);

    @Test
    void theShardOfTheFailedMasterRefusesSchedulesUntilItHasAReplicaAgainAndTheOthersGoOn() throws Exception {
        Set<String> delivered = ConcurrentHashMap.newKeySet();
        String uri = "redis-delay:" + QUEUE + "?shards=" + SHARDS + "&syncReplicas=1";
        ProducerTemplate template = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).process(e -> delivered.add(e.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID, String.class)));
            }
        }).createProducerTemplate();
        List<String> tags = ShardTags.of(QUEUE, SHARDS);
        String failingTag = tags.get(1);
        RedisServerProcess master = cluster.masterOf("{" + failingTag + "}");
        RedisServerProcess replica = cluster.replicaOf(master);
        assertThat(cluster.masterOf("{" + tags.get(2) + "}")).isNotSameAs(master);

        master.kill();
        cluster.awaitPromotion(replica, PROMOTION_TIMEOUT);
        await("a schedule of the promoted master's shard refused for want of a replica").atMost(Duration.ofSeconds(30))
                .until(() -> send(template, uri, idOnShard(1, "a")).getException() instanceof NotReplicatedException);
        Exception refused = send(template, uri, idOnShard(1, "a")).getException();
        assertThat(refused).isInstanceOf(NotReplicatedException.class)
                .hasMessageContaining("(hash tag {" + failingTag + "}) reached 0 of 1 required replicas");
        assertThat(send(template, uri, idOnShard(2, "a")).getException()).as("a schedule of another shard").isNull();

        master.restart();
        await("the old master is the new one's replica, and the shard's schedules succeed again")
                .atMost(Duration.ofSeconds(30))
                .until(() -> send(template, uri, idOnShard(1, "b")).getException() == null);
        await("deliveries of both shards").atMost(Duration.ofSeconds(20))
                .until(() -> delivered.containsAll(List.of(idOnShard(2, "a"), idOnShard(1, "b"))));
    }

    /** The first id {@code <name>-<n>} whose message lives on shard {@code shard}. */
    private static String idOnShard(int shard, String name) {
        for (int n = 0; n < 1_000; n++) {
            String id = name + "-" + n;
            if (ShardTags.shardOf(id, SHARDS) == shard) {
                return id;
            }
        }
        throw new IllegalStateException("no id on shard " + shard);
    }

    private static Exchange send(ProducerTemplate template, String uri, String id) {
        return template.send(uri, e -> e.getMessage().setHeaders(Map.of(RedisDelayConstants.MESSAGE_ID, id,
                RedisDelayConstants.DELAY, 100)));
    }
}
