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
import java.util.stream.IntStream;

import io.github.camelredisdelay.RedisDelayConstants;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.test.HeldFirstMessage;
import org.apache.camel.CamelExecutionException;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A queue's slot moving to another master (resharding, {@code CLUSTER SETSLOT ... MIGRATING}), done by hand the way
 * {@code redis-cli --cluster reshard} does it: key by key, then every master told the new owner.
 */
class ClusterReshardingTest extends ClusterTestSupport {

    private static final String QUEUE = "moving";
    private static final String URI = "redis-delay:" + QUEUE + "?delay=1h";

    @Test
    void aScheduleMeetingItsSlotHalfMovedWritesNothingAndTheQueueWorksOnceTheSlotHasMoved() throws Exception {
        // a consumer makes the ready stream and its group; the messages of this test are due in an hour
        ProducerTemplate producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:" + QUEUE).log("delivered ${body}");
            }
        }).createProducerTemplate();
        producer.sendBodyAndHeader(URI, "first", RedisDelayConstants.MESSAGE_ID, "m-1");
        RedisServerProcess source = masterOf(QUEUE);
        // failure notes and migration marks, as a queue has after a retry and a migration from an RDelayedQueue
        source.command("HSET", key(QUEUE, "fail"), "other", "1:boom");
        source.command("SADD", key(QUEUE, "migrated"), "other");
        RedisServerProcess target = otherMasterThan(source);
        int slot = startMove(QUEUE, source, target);
        // the due set's bucket moves first; the index and the message hash are still on the source
        String bucket = key(QUEUE, "due") + ":" + source.command("ZRANGE", key(QUEUE, "due"), "0", "0");
        migrate(source, target, bucket);

        assertThatThrownBy(() -> producer.sendBodyAndHeader(URI, "second", RedisDelayConstants.MESSAGE_ID, "m-2"))
                .isInstanceOf(CamelExecutionException.class)
                .rootCause().as("Redis refused the script while its slot moves").hasMessageContaining("TRYAGAIN");
        assertThat(source.command("HEXISTS", key(QUEUE, "msg"), "m-2"))
                .as("a schedule that failed stored no record outside the due set").isEqualTo("0");

        finishMove(slot, source, target);
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
            producer.sendBodyAndHeader(URI, "second", RedisDelayConstants.MESSAGE_ID, "m-2");
            return true;
        });
        assertThat(target.command("HKEYS", key(QUEUE, "msg")).split("\n")).containsExactlyInAnyOrder("m-1", "m-2");
        assertThat(List.of("m-1", "m-2")).allSatisfy(id -> assertThat(
                producer.request(URI.replace("?delay=1h", "?operation=peek"),
                        e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, id))
                        .getMessage().getHeader(RedisDelayConstants.STATE))
                .as("state of " + id).isEqualTo("scheduled"));
    }

    @Test
    void messagesReadWhileTheSlotMovesReachTheRouteAndNoneIsDeadLettered() throws Exception {
        String queue = "held";
        HeldFirstMessage route = new HeldFirstMessage(queue, "maxDeliveries=1&visibilityTimeout=5000");
        ProducerTemplate producer = startContext(route).createProducerTemplate();
        List<String> next = IntStream.rangeClosed(1, 5).mapToObj(i -> "next-" + i).toList();
        route.sendFirstAndWaitUntilHeld(producer);
        next.forEach(body -> producer.sendBody("redis-delay:" + queue, body));
        RedisServerProcess source = masterOf(queue);
        await().atMost(Duration.ofSeconds(10)).until(() -> source.command("XLEN", key(queue, "ready")).equals("6"));

        // the slot starts moving: every script of the queue is refused (TRYAGAIN), plain reads are served
        RedisServerProcess target = otherMasterThan(source);
        int slot = startMove(queue, source, target);
        route.release();
        try {
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(route.routed())
                    .as("messages read beside the refused acknowledgement").containsAll(next));
        } finally {
            finishMove(slot, source, target);
        }

        route.assertEachRoutedOnceAndNoneDeadLettered(producer, next, Duration.ofSeconds(30));
    }

    /** Starts moving the slot of {@code queue} from {@code source} to {@code target}; returns the slot. */
    private static int startMove(String queue, RedisServerProcess source, RedisServerProcess target) {
        int slot = cluster.slotOf("{" + queue + "}");
        target.command("CLUSTER", "SETSLOT", String.valueOf(slot), "IMPORTING", source.command("CLUSTER", "MYID"));
        source.command("CLUSTER", "SETSLOT", String.valueOf(slot), "MIGRATING", target.command("CLUSTER", "MYID"));
        return slot;
    }

    /** Moves the keys of {@code slot} still on {@code source}, then tells every master that {@code target} owns it. */
    private static void finishMove(int slot, RedisServerProcess source, RedisServerProcess target) {
        for (String key : source.command("CLUSTER", "GETKEYSINSLOT", String.valueOf(slot), "1000").split("\n")) {
            if (!key.isEmpty()) {
                migrate(source, target, key);
            }
        }
        String targetId = target.command("CLUSTER", "MYID");
        for (RedisServerProcess node : cluster.nodes()) {
            if (node.command("ROLE").startsWith("master")) {
                node.command("CLUSTER", "SETSLOT", String.valueOf(slot), "NODE", targetId);
            }
        }
    }

    private static RedisServerProcess otherMasterThan(RedisServerProcess master) {
        return cluster.nodes().stream()
                .filter(node -> node != master && node.command("ROLE").startsWith("master"))
                .findFirst().orElseThrow();
    }

    private static void migrate(RedisServerProcess source, RedisServerProcess target, String key) {
        assertThat(source.command("MIGRATE", "127.0.0.1", String.valueOf(target.port()), key, "0", "5000"))
                .isEqualTo("OK");
    }
}
