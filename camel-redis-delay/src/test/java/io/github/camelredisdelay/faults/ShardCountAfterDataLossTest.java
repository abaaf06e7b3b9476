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
package io.github.camelredisdelay.faults;

import java.time.Duration;

import io.github.camelredisdelay.embedded.RedisServerProcess;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.awaitility.Awaitility.await;

/**
 * Redis loses its data (a restart without persistence, a FLUSHALL) while a node uses a queue with the right shard count
 * and a misconfigured node with another count is refused.
 */
class ShardCountAfterDataLossTest extends FaultTestSupport {

    @Test
    @Tag("slow")
    void aMisconfiguredNodeDoesNotTakeTheQueueFromTheRunningNodesWhenRedisLosesItsData() throws Exception {
        RedisServerProcess server = redisProcess();
        String shardsKey = key("sq", "shards");
        CamelContext good = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:sq").routeId("good").log("${body}");
            }
        });
        String firstSeen = awaitConfirmation(server, shardsKey, null);

        // a node with another shard count starts between two confirmations of the running node, 4 s after the last one
        // on Redis' clock (its checks then come 4 s after the running node's): it is refused
        await("4 s past the running node's confirmation").atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> server.timeMillis() - Long.parseLong(firstSeen) >= 4_000);
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:sq?shards=2").routeId("misconfigured").log("${body}");
            }
        });

        // Redis loses its data right after the running node's next confirmation
        awaitConfirmation(server, shardsKey, firstSeen);
        server.command("FLUSHALL");

        // both nodes check again (the misconfigured one first), every 10 s
        // the first record after the loss, then the next confirmation of the count recorded: both nodes checked by then
        String recordedAgain = awaitConfirmation(server, shardsKey, null);
        awaitConfirmation(server, shardsKey, recordedAgain);
        assertThatCode(() -> good.createProducerTemplate().sendBody("redis-delay:sq?delay=1h", "x"))
                .as("a schedule of the node that used the queue all along").doesNotThrowAnyException();
    }

    /** Waits until the running node confirms its count anew (field seen other than {@code before}), at most 15 s. */
    private static String awaitConfirmation(RedisServerProcess server, String shardsKey, String before) {
        String[] seen = new String[1];
        await("a confirmation of the shard count").atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(20))
                .until(() -> {
                    seen[0] = server.command("HGET", shardsKey, "seen");
                    return seen[0] != null && !seen[0].equals(before);
                });
        return seen[0];
    }
}
