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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.test.CamelNodes;
import io.github.camelredisdelay.test.CamelSide;
import org.apache.camel.ProducerTemplate;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A client whose first connection to a cluster fails (a slot no master serves, with Redisson's default
 * checkSlotsCoverage) while several threads use it: once every slot is served again, each of them gets its message
 * stored. None may wait for ever on a first connection that another thread failed to make. The subject is the client's
 * side, so the Redis 7 pass alone runs it.
 */
@CamelSide
class ClusterFirstConnectionTest extends ClusterTestSupport {

    private static final String URI = "redis-delay:orders?delay=1h";
    private static final int SENDERS = 8;
    private static final int ROUNDS = 3;
    /**
     * Refused sends before the slot is served again: about three first connections fail while every sender sends (they
     * begin a second apart, and each refuses every sender that waited for it).
     */
    private static final int REFUSALS = 3 * SENDERS;
    private static final Duration ANSWER_WAIT = Duration.ofSeconds(45);

    @Test
    void everySenderOfAClientWhoseFirstConnectionFailedIsAnsweredOnceEverySlotIsServed() throws Exception {
        // without retries a first connection fails within a few milliseconds: many fail while the senders run
        Path config = RedissonClusterYaml.write(cluster.nodeAddresses());
        Files.writeString(config, Files.readString(config).replace("retryAttempts: 3", "retryAttempts: 0"));
        ExecutorService senders = Executors.newFixedThreadPool(SENDERS, runnable -> {
            Thread thread = new Thread(runnable, "sender");
            thread.setDaemon(true);
            return thread;
        });
        try {
            for (int round = 1; round <= ROUNDS; round++) {
                RedisServerProcess owner = unserveLastSlot();
                try (CamelNodes nodes = new CamelNodes()) {
                    ProducerTemplate template = nodes.start(options -> {
                        options.setRedissonConfig("file:" + config);
                        options.setKeyPrefix(keyPrefix);
                    }).createProducerTemplate();
                    AtomicInteger refusals = new AtomicInteger();
                    List<Future<Integer>> sends = startSenders(senders, template, refusals);
                    await(REFUSALS + " refused sends (a sender waiting for ever refuses no more)")
                            .atMost(Duration.ofSeconds(30))
                            .until(() -> refusals.get() >= REFUSALS);
                    owner.command("CLUSTER", "ADDSLOTS", LAST_SLOT);

                    long deadline = System.nanoTime() + ANSWER_WAIT.toNanos();
                    int stored = 0;
                    for (Future<Integer> send : sends) {
                        try {
                            stored += send.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                        } catch (TimeoutException e) {
                            throw new AssertionError(
                                    "Round " + round + ": a sender had no answer " + ANSWER_WAIT.toSeconds()
                                                     + " s after every slot was served again",
                                    e);
                        }
                    }
                    assertThat(stored).as("messages stored in round %d", round).isEqualTo(SENDERS);
                }
            }
        } finally {
            senders.shutdownNow();
            Files.delete(config);
        }
        assertThat(masterOf("orders").command("HLEN", key("orders", "msg"))).isEqualTo(String.valueOf(SENDERS * ROUNDS));
    }

    /**
     * Each sender sends until one message is stored (then answers 1), at most 10,000 times and for a minute, counting
     * its refused sends.
     */
    private static List<Future<Integer>> startSenders(
            ExecutorService senders, ProducerTemplate template, AtomicInteger refusals) {
        List<Future<Integer>> sends = new ArrayList<>();
        for (int i = 0; i < SENDERS; i++) {
            sends.add(senders.submit(() -> {
                long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
                for (int attempt = 0; attempt < 10_000 && System.nanoTime() < deadline; attempt++) {
                    try {
                        template.sendBody(URI, "sent while the client makes its first connection");
                        return 1;
                    } catch (RuntimeException refused) {
                        // not all slots covered yet: try again
                        refusals.incrementAndGet();
                    }
                }
                return 0;
            }));
        }
        return sends;
    }
}
