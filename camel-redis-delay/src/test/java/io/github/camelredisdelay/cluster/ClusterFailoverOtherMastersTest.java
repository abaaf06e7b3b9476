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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.github.camelredisdelay.RedisDelayConstants;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A master fails over while a producer schedules onto a queue of another master, every 20 ms: docs/cluster.md says such
 * queues carry on unaffected.
 */
@Tag("slow")
class ClusterFailoverOtherMastersTest extends ClusterTestSupport {

    private static final String FAILING = "orders";
    private static final String OTHER = "payments";
    private static final Duration PROMOTION_TIMEOUT = Duration.ofSeconds(30);
    /** A schedule on a healthy master answers within milliseconds; this leaves room for a busy machine. */
    private static final long UNAFFECTED_MILLIS = 500;

    @Test
    void aQueueOnAnotherMasterIsServedWithoutPauseThroughoutTheFailoverWithoutFullCoverageRequired() throws Exception {
        cluster.nodes().forEach(node -> node.command("CONFIG", "SET", "cluster-require-full-coverage", "no"));
        ProducerTemplate template = startContext().createProducerTemplate();
        String uri = "redis-delay:" + OTHER + "?delay=1h";
        RedisServerProcess failing = masterOf(FAILING);
        RedisServerProcess replica = cluster.replicaOf(failing);
        assertThat(masterOf(OTHER)).isNotSameAs(failing);
        assertThat(send(template, uri, "before").getException()).isNull();

        AtomicInteger sent = new AtomicInteger();
        AtomicLong slowest = new AtomicLong();
        List<String> failures = new CopyOnWriteArrayList<>();
        long killedAt = System.nanoTime();
        failing.kill();
        // schedules every 20 ms until the replica says it is master and a second more: the whole failover
        AtomicLong promotedAt = new AtomicLong();
        await("the failover, with schedules of queue " + OTHER + " throughout").atMost(PROMOTION_TIMEOUT)
                .pollInterval(Duration.ofMillis(20)).until(() -> {
                    long start = System.nanoTime();
                    Exchange exchange = send(template, uri, "m-" + sent.incrementAndGet());
                    long tookMillis = (System.nanoTime() - start) / 1_000_000;
                    slowest.accumulateAndGet(tookMillis, Math::max);
                    if (exchange.getException() != null) {
                        failures.add((start - killedAt) / 1_000_000 + " ms after the kill: " + exchange.getException());
                    }
                    if (promotedAt.get() == 0 && replica.command("ROLE").startsWith("master\n")) {
                        promotedAt.set(System.nanoTime());
                    }
                    return promotedAt.get() != 0 && System.nanoTime() - promotedAt.get() > 1_000_000_000L;
                });

        assertThat(failures).as("failed schedules of queue %s, served by a master that did not fail", OTHER).isEmpty();
        assertThat(slowest.get()).as("longest schedule (ms) of queue %s among %d during the failover", OTHER, sent.get())
                .isLessThan(UNAFFECTED_MILLIS);
    }

    private static Exchange send(ProducerTemplate template, String uri, String id) {
        return template.send(uri, exchange -> exchange.getMessage().setHeaders(Map.of(RedisDelayConstants.MESSAGE_ID, id)));
    }
}
