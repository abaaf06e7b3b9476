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
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import io.github.camelredisdelay.RedisDelayConstants;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.internal.ShardTags;
import io.github.camelredisdelay.test.HealthChecks;
import io.github.camelredisdelay.test.ProcessSignals;
import org.apache.camel.CamelContext;
import org.apache.camel.ConsumerTemplate;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.health.HealthCheck;
import org.apache.camel.health.HealthCheckHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One master of a cluster stops answering (SIGSTOP; its replica may not fail over and the others serve their slots
 * without full coverage), while the other masters answer: readiness is DOWN for the queues with a shard on it and UP
 * for those wholly elsewhere, within a bounded time; messages on the other masters are still delivered; a context stops
 * within its shutdown timeout; and nothing is lost or delivered twice once the master answers again.
 */
@Tag("slow")
class ClusterSilentMasterTest extends ClusterTestSupport {

    private static final String SHARDED = "spread";
    /**
     * Queues wholly on the silent master: a context's consumers stop one after another, so a stop that waits a while
     * for each consumer's unanswered read exceeds the test contexts' shutdown timeout of 10 s.
     */
    private static final int SILENT_QUEUES = 6;

    private final Queue<String> delivered = new ConcurrentLinkedQueue<>();
    private RedisServerProcess silent;
    private RedisServerProcess replica;
    private String healthy;
    /** Queues wholly on the silent master, their dead-letter queues elsewhere. */
    private List<String> onSilent;
    /** This test's contexts, stopped after it so that none consumes the next test's messages. */
    private final List<CamelContext> nodes = new java.util.ArrayList<>();

    @BeforeEach
    void chooseQueuesAndAllowPartialCoverage() {
        List<String> shards = ShardTags.of(SHARDED, 3);
        assertThat(shards.stream().map(ClusterTestSupport::masterOf).distinct()).hasSize(3);
        silent = masterOf(shards.get(2));
        replica = cluster.replicaOf(silent);
        healthy = queuesNamed(name -> masterOf(name) != silent && masterOf(name + ".dead") != silent, 1).get(0);
        onSilent = queuesNamed(name -> masterOf(name) == silent && masterOf(name + ".dead") != silent, SILENT_QUEUES);
        cluster.nodes().forEach(node -> node.command("CONFIG", "SET", "cluster-require-full-coverage", "no"));
        replica.command("CONFIG", "SET", "cluster-replica-no-failover", "yes");
    }

    @AfterEach
    void restoreCoverage() throws Exception {
        ProcessSignals.resume(silent);
        nodes.forEach(CamelContext::stop);
        cluster.nodes().forEach(node -> node.command("CONFIG", "SET", "cluster-require-full-coverage", "yes"));
        replica.command("CONFIG", "SET", "cluster-replica-no-failover", "no");
    }

    private static List<String> queuesNamed(Predicate<String> where, int count) {
        List<String> names = IntStream.range(0, 500).mapToObj(i -> "q" + i).filter(where).limit(count).toList();
        assertThat(names).hasSize(count);
        return names;
    }

    private RouteBuilder consumers() {
        return new RouteBuilder() {
            @Override
            public void configure() {
                for (String queue : Stream.concat(Stream.of(healthy, SHARDED + "?shards=3"), onSilent.stream()).toList()) {
                    from("redis-delay:" + queue).routeId(queue.replace("?shards=3", ""))
                            .process(e -> delivered.add(e.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID,
                                    String.class)));
                }
            }
        };
    }

    /** Ids of the sharded queue whose shard lives on a master that answers. */
    private List<String> idsOnAnsweringShards(String prefix, int count) {
        List<String> shards = ShardTags.of(SHARDED, 3);
        return IntStream.range(0, 1000).mapToObj(i -> "q" + i)
                .filter(id -> masterOf(shards.get(ShardTags.shardOf(id, 3))) != silent).limit(count).toList();
    }

    private static Map<String, HealthCheck.Result> readiness(CamelContext node) {
        return HealthCheckHelper.invokeReadiness(node, "full").stream()
                .collect(Collectors.toMap(result -> result.getCheck().getId(), result -> result, (a, b) -> a));
    }

    private static String describe(Map<String, HealthCheck.Result> results) {
        return results.size() + " checks: " + results.values().stream()
                .map(r -> r.getCheck().getId() + "=" + r.getState() + " " + r.getMessage().orElse(""))
                .collect(Collectors.joining("; "));
    }

    @Test
    void readinessNamesTheQueuesOfTheSilentMasterOnlyAndTheOthersDeliver() throws Exception {
        CamelContext node = createContext(consumers());
        nodes.add(node);
        HealthChecks.enableConsumersAndProducers(node);
        node.start();
        ProducerTemplate producer = node.createProducerTemplate();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> HealthChecks.readiness(node).values().stream().allMatch(HealthCheck.State.UP::equals));

        List<String> ids = idsOnAnsweringShards("during-", 6);
        // a probe just before the master falls silent, as a prober asking every second or two makes
        assertThat(HealthChecks.readiness(node)).allSatisfy((id, state) -> assertThat(state).isEqualTo(HealthCheck.State.UP));
        ProcessSignals.pause(silent);
        for (int round = 0; round < 3; round++) {
            long asked = System.nanoTime();
            Map<String, HealthCheck.Result> results
                    = CompletableFuture.supplyAsync(() -> readiness(node)).get(30, TimeUnit.SECONDS);
            Duration took = Duration.ofNanos(System.nanoTime() - asked);
            String seen = "healthy " + healthy + ", on the silent master " + onSilent + ", round " + round + " took "
                          + took.toMillis() + " ms: " + describe(results);
            assertThat(took).as(seen).isLessThan(Duration.ofSeconds(4));
            assertThat(results.get("consumer:" + healthy).getState()).as(seen).isEqualTo(HealthCheck.State.UP);
            for (String queue : onSilent) {
                assertThat(results.get("consumer:" + queue).getState()).as(seen).isEqualTo(HealthCheck.State.DOWN);
                assertThat(results.get("consumer:" + queue).getMessage()).as(seen).get().asString().contains(queue);
            }
            assertThat(results.get("consumer:" + SHARDED).getState()).as(seen).isEqualTo(HealthCheck.State.DOWN);
        }

        ids.forEach(id -> producer.sendBodyAndHeader("redis-delay:" + SHARDED + "?shards=3", id,
                RedisDelayConstants.MESSAGE_ID, id));
        producer.sendBodyAndHeader("redis-delay:" + healthy, "h", RedisDelayConstants.MESSAGE_ID, "healthy-1");
        await("deliveries on the masters that answer").atMost(Duration.ofSeconds(10))
                .until(() -> delivered.containsAll(ids) && delivered.contains("healthy-1"));

        ProcessSignals.resume(silent);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> HealthChecks.readiness(node).values().stream().allMatch(HealthCheck.State.UP::equals));
        assertThat(delivered).doesNotHaveDuplicates();
    }

    @Test
    void aContextStopsWithinItsShutdownTimeoutWhileAMasterIsSilentAndLosesNothing() throws Exception {
        CamelContext node = startContext(consumers());
        nodes.add(node);
        ProducerTemplate producer = node.createProducerTemplate();
        List<String> before = idsOnAnsweringShards("before-", 30);
        before.forEach(id -> producer.sendBodyAndHeader("redis-delay:" + SHARDED + "?shards=3", id,
                RedisDelayConstants.MESSAGE_ID, id));
        await().atMost(Duration.ofSeconds(15)).until(() -> delivered.containsAll(before));

        List<String> during = idsOnAnsweringShards("during-", 30);
        ProcessSignals.pause(silent);
        during.forEach(id -> producer.sendBodyAndHeader("redis-delay:" + SHARDED + "?shards=3", id,
                RedisDelayConstants.MESSAGE_ID, id));
        await().atMost(Duration.ofSeconds(15)).until(() -> delivered.containsAll(during));
        // a read of the silent shard has now waited longer than Redis takes to answer one
        await().pollDelay(Duration.ofSeconds(6)).atMost(Duration.ofSeconds(7)).until(() -> true);
        Duration shutdownTimeout = Duration.ofSeconds(node.getShutdownStrategy().getTimeout());
        long stopping = System.nanoTime();
        CompletableFuture.runAsync(node::stop).get(2, TimeUnit.MINUTES);
        Duration stop = Duration.ofNanos(System.nanoTime() - stopping);
        ProcessSignals.resume(silent);

        assertThat(stop).as("stop while one master is silent").isLessThan(shutdownTimeout);
        CamelContext inspector = startContext();
        nodes.add(inspector);
        ProducerTemplate peeker = inspector.createProducerTemplate();
        List<String> stillStored = Stream.concat(before.stream(), during.stream()).filter(id -> peeker.request(
                "redis-delay:" + SHARDED + "?shards=3&operation=peek",
                e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, id))
                .getMessage().getHeader(RedisDelayConstants.STATE) != null).toList();
        assertThat(stillStored).as("messages of the answering shards finished before the stop, still stored").isEmpty();
    }

    /**
     * A queue of three shards named {@code prefix<n>}, apart from the other tests' queues of one shard, each shard on
     * another master, shard 0 on the one that falls silent.
     */
    private String queueWithShard0OnTheSilentMaster(String prefix) {
        return IntStream.range(0, 500).mapToObj(i -> prefix + i).filter(name -> {
            List<String> shards = ShardTags.of(name, 3);
            return masterOf(shards.get(0)) == silent && shards.stream().map(ClusterTestSupport::masterOf).distinct()
                    .count() == 3;
        }).findFirst().orElseThrow();
    }

    /**
     * Sends a message id'd so that it lands on a shard whose master is, or is not, the silent one; and awaits it ready.
     */
    private static String sendReady(
            ProducerTemplate producer, String queue, String uri, boolean onSilent, RedisServerProcess silent) {
        List<String> shards = ShardTags.of(queue, 3);
        String id = IntStream.range(0, 1000).mapToObj(i -> "m" + i)
                .filter(candidate -> (masterOf(shards.get(ShardTags.shardOf(candidate, 3))) == silent) == onSilent)
                .findFirst().orElseThrow();
        producer.sendBodyAndHeader(uri, "ready on " + shards.get(ShardTags.shardOf(id, 3)), RedisDelayConstants.MESSAGE_ID,
                id);
        await().atMost(Duration.ofSeconds(10)).until(() -> "ready".equals(producer.request(uri + "&operation=peek",
                e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, id)).getMessage()
                .getHeader(RedisDelayConstants.STATE)));
        return "ready on " + shards.get(ShardTags.shardOf(id, 3));
    }

    /**
     * Starts a node and sends it a message, ready, on a queue of three shards named {@code prefix<n>} whose shard 0 is
     * on the master that falls silent; the message on a shard of that master, or not.
     *
     * @param options more endpoint options, each starting with {@code &}
     */
    private ReadyMessage readyMessage(String prefix, String options, boolean onSilent) throws Exception {
        String queue = queueWithShard0OnTheSilentMaster(prefix);
        String uri = "redis-delay:" + queue + "?shards=3" + options;
        CamelContext node = startContext();
        nodes.add(node);
        return new ReadyMessage(node, uri, sendReady(node.createProducerTemplate(), queue, uri, onSilent, silent));
    }

    private record ReadyMessage(CamelContext node, String uri, String body) {
    }

    /** {@code receiveBody(uri, timeoutMs)} on another thread: what it returned or threw, and how long it took. */
    private static Received receive(CamelContext node, String uri, long timeoutMs) throws Exception {
        return received(node, consumer -> consumer.receiveBody(uri, timeoutMs));
    }

    /** {@code receiveBodyNoWait(uri)} on another thread: what it returned or threw, and how long it took. */
    private static Received receiveNoWait(CamelContext node, String uri) throws Exception {
        return received(node, consumer -> consumer.receiveBodyNoWait(uri));
    }

    /**
     * What {@code receiving} returned or threw, on another thread, with a new ConsumerTemplate (whose receiver asks
     * shard 0 first), and how long it took.
     */
    private static Received received(CamelContext node, Function<ConsumerTemplate, Object> receiving) throws Exception {
        long asked = System.nanoTime();
        Object body = CompletableFuture.supplyAsync(() -> receiving.apply(node.createConsumerTemplate()))
                .handle((done, failure) -> failure != null ? failure : done).get(60, TimeUnit.SECONDS);
        return new Received(body, Duration.ofNanos(System.nanoTime() - asked));
    }

    private record Received(Object body, Duration took) {
    }

    @Test
    void aPollingConsumerDeliversTheMessagesOfAnsweringShardsWhileShard0sMasterIsSilent() throws Exception {
        String queue = queueWithShard0OnTheSilentMaster("polling");
        String uri = "redis-delay:" + queue + "?shards=3&consumerType=polling";
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).process(e -> delivered.add(e.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID, String.class)));
            }
        });
        nodes.add(node);
        ProducerTemplate producer = node.createProducerTemplate();
        List<String> shards = ShardTags.of(queue, 3);
        List<String> ids = IntStream.range(0, 1000).mapToObj(i -> "m" + i)
                .filter(id -> masterOf(shards.get(ShardTags.shardOf(id, 3))) != silent).limit(6).toList();
        producer.sendBodyAndHeader(uri, "before", RedisDelayConstants.MESSAGE_ID, ids.get(0));
        await("delivered before the master falls silent").atMost(Duration.ofSeconds(10))
                .until(() -> delivered.contains(ids.get(0)));

        ProcessSignals.pause(silent);
        List<String> during = ids.subList(1, ids.size());
        during.forEach(id -> producer.sendBodyAndHeader(uri, "during", RedisDelayConstants.MESSAGE_ID, id));

        // a poll may wait for the silent shard's read as long as the client's timeout and retries: 4 x 3 s + 3 x 0.5 s
        await("messages of the shards on the answering masters").atMost(Duration.ofSeconds(30))
                .until(() -> delivered.containsAll(during));
    }

    @Test
    void aConsumerTemplateReceivesAMessageOfAnAnsweringShardWithinItsTimeout() throws Exception {
        ReadyMessage ready = readyMessage("polled", "", false);

        ProcessSignals.pause(silent);
        Received received = receive(ready.node(), ready.uri(), 3000);

        assertThat(received.body()).as("received in %s ms with shard 0's master silent", received.took().toMillis())
                .isEqualTo(ready.body());
        assertThat(received.took()).isLessThan(Duration.ofSeconds(3));
    }

    @Test
    void receiveNoWaitAsksTheOtherShardsWhenShard0sMasterIsSilent() throws Exception {
        ReadyMessage ready = readyMessage("nowait", "", false);

        ProcessSignals.pause(silent);
        Received received = receiveNoWait(ready.node(), ready.uri());

        assertThat(received.body()).as("received without waiting in %s ms with shard 0's master silent",
                received.took().toMillis()).isEqualTo(ready.body());
        assertThat(received.took()).isLessThan(Duration.ofSeconds(2));
    }

    @Test
    void aMessageThatASilentShardLeasesAfterItsReceiverGaveUpIsHandedBackAndReceivedNext() throws Exception {
        // a message whose lease expired would come back only after a minute
        ReadyMessage ready = readyMessage("late", "&visibilityTimeout=60000", true);

        ProcessSignals.pause(silent);
        Received nothing = receive(ready.node(), ready.uri(), 1000);
        // before the client's response timeout (3 s): the read under way is answered, not tried again
        ProcessSignals.resume(silent);

        assertThat(nothing.body()).as("received in %s ms with shard 0's master silent", nothing.took().toMillis()).isNull();
        assertThat(nothing.took()).isLessThan(Duration.ofSeconds(2));
        Received next = receive(ready.node(), ready.uri(), 10_000);
        assertThat(next.body()).as("received in %s ms once the master answers", next.took().toMillis())
                .isEqualTo(ready.body());
        assertThat(next.took()).isLessThan(Duration.ofSeconds(5));
    }
}
