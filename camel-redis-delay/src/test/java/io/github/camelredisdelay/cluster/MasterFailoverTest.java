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
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import io.github.camelredisdelay.RedisDelayConstants;
import io.github.camelredisdelay.embedded.RedisClusterDeployment;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.faults.Deliveries;
import io.github.camelredisdelay.faults.DeliveryLog;
import io.github.camelredisdelay.faults.DeliveryLog.Entry;
import io.github.camelredisdelay.faults.DeliveryLog.Event;
import io.github.camelredisdelay.faults.PacedProducer;
import io.github.camelredisdelay.faults.RecordingProcessor;
import io.github.camelredisdelay.faults.Tally;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The master that serves a queue's slot is killed with SIGKILL while a producer node schedules 100 messages a second
 * and a consumer node delivers them: the master's replica is promoted and delivery resumes on it.
 *
 * <p>
 * Redis replicates asynchronously: a schedule the old master acknowledged in its last moments may never have reached
 * the replica, and is then lost. Such losses are counted and reported apart, with how long before the kill each was
 * acknowledged; the test asserts what asynchronous replication does promise, that no schedule acknowledged after the
 * promotion is lost. Deliveries are noted in this JVM's memory.
 */
@Tag("slow")
class MasterFailoverTest extends ClusterTestSupport {

    private static final String QUEUE = "failover";
    /** Served by another master than {@link #QUEUE}, so each test has a master with a replica to fail over. */
    private static final String ON_TIME_QUEUE = "payments";
    private static final int RATE = 100;
    private static final int MAX_MESSAGES = 1_500;
    private static final long MAX_DELAY_MILLIS = 500;
    private static final int DELIVERIES_BEFORE_KILL = 300;
    private static final Duration PROMOTION_TIMEOUT = Duration.ofSeconds(30);
    private static final long LATE_TOLERANCE_MILLIS = 1_000;

    /**
     * When the master was killed, when its replica said it was master, and when every node agreed (local clock), with
     * the acknowledged sends.
     *
     * @param acknowledgedAt each acknowledged send's id with the local time it was acknowledged
     */
    private record Failover(long killedAt, long promotedAt, long agreedAt, Map<String, Long> acknowledgedAt) {

        /**
         * Lost sends acknowledged before the promotion, with how many ms before the kill each was. Only the old master
         * can have acknowledged them, so they are the ones asynchronous replication may lose.
         */
        Map<String, Long> lostBeforePromotion(Set<String> lost) {
            return lost.stream().filter(id -> acknowledgedAt.get(id) <= promotedAt)
                    .collect(Collectors.toMap(id -> id, id -> killedAt - acknowledgedAt.get(id), (a, b) -> a,
                            TreeMap::new));
        }

        Set<String> lostAfterPromotion(Set<String> lost) {
            return lost.stream().filter(id -> acknowledgedAt.get(id) > promotedAt).collect(Collectors.toSet());
        }

        /**
         * When deliveries resumed: the first delivery that started once the master had been unreachable for the cluster
         * node timeout. No replica can be promoted sooner, so that delivery came from the new master.
         */
        OptionalLong resumedAt(Deliveries deliveries) {
            long earliestPromotion = killedAt + RedisClusterDeployment.NODE_TIMEOUT.toMillis();
            return deliveries.entries().stream().filter(e -> e.event() == Event.STARTED)
                    .mapToLong(Entry::atMillis).filter(at -> at >= earliestPromotion).min();
        }
    }

    @Test
    void deliveryResumesOnThePromotedReplicaAndNoScheduleAcknowledgedAfterThePromotionIsLost() throws Exception {
        long started = System.nanoTime();
        DeliveryLog deliveryLog = DeliveryLog.inMemory();
        CamelContext consumerNode = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:" + QUEUE + "?visibilityTimeout=5s")
                        .process(new RecordingProcessor(deliveryLog, "node-consumer", 5));
            }
        });
        ProducerTemplate template = startContext().createProducerTemplate();
        RedisServerProcess master = masterOf(QUEUE);
        RedisServerProcess replica = cluster.replicaOf(master);

        Failover failover;
        String failures;
        try (PacedProducer producer = new PacedProducer(
                template, "redis-delay:" + QUEUE, "m", RATE, MAX_MESSAGES,
                MAX_DELAY_MILLIS).start()) {
            await("deliveries flow before the kill").atMost(Duration.ofSeconds(60))
                    .until(() -> deliveryLog.read().finishedCount() >= DELIVERIES_BEFORE_KILL);
            long killedAt = System.currentTimeMillis();
            master.kill();
            await("the replica says it is master").atMost(PROMOTION_TIMEOUT).pollInterval(Duration.ofMillis(20))
                    .until(() -> replica.command("ROLE").startsWith("master\n"));
            long promotedAt = System.currentTimeMillis();
            cluster.awaitPromotion(replica, PROMOTION_TIMEOUT);
            long agreedAt = System.currentTimeMillis();
            assertThat(masterOf(QUEUE)).as("master of the queue's slot after the failover").isSameAs(replica);

            await("all sends acknowledged").atMost(Duration.ofSeconds(90)).until(producer::isDone);
            producer.stop();
            failover = new Failover(killedAt, promotedAt, agreedAt, producer.acknowledged());
            failures = producer.failureSummary();
        }
        deliveryLog.awaitFinished(failover.acknowledgedAt().keySet(), Duration.ofSeconds(60));
        // settles what the consumer has fetched, so late duplicates are counted too
        consumerNode.stop();
        String leftInQueue = replica.command("HLEN", key(QUEUE, "msg"));

        Deliveries deliveries = deliveryLog.read();
        Tally tally = deliveries.tally(failover.acknowledgedAt().keySet());
        Map<String, Long> lostInWindow = failover.lostBeforePromotion(tally.lost());
        OptionalLong resumedAt = failover.resumedAt(deliveries);
        tally.report("cluster: master kill -9, replica promoted, under load", cluster.version(),
                Duration.ofNanos(System.nanoTime() - started),
                "promotedAfter=" + (failover.promotedAt() - failover.killedAt()) + "ms"
                                                               + " allNodesAgreedAfter="
                                                               + (failover.agreedAt() - failover.killedAt()) + "ms"
                                                               + " resumedAfter="
                                                               + (resumedAt.isPresent()
                                                                       ? resumedAt.getAsLong() - failover.killedAt() + "ms"
                                                                       : "never")
                                                               + " lostAckedBeforePromotion=" + lostInWindow.size()
                                                               + " (ms before kill: " + lostInWindow + ")"
                                                               + " leftInQueueAfterStop=" + leftInQueue + " " + failures
                                                               + " duplicated=" + deliveries.duplicatedIds());

        assertThat(resumedAt).as("a delivery after the failover").isPresent();
        assertThat(failover.lostAfterPromotion(tally.lost())).as("lost sends acknowledged after the promotion")
                .isEmpty();
    }

    @Test
    void delayedMessageIsOnTimeAfterFailoverWithoutTheTransferSafetyNet() throws Exception {
        assertThat(masterOf(ON_TIME_QUEUE)).isNotSameAs(masterOf(QUEUE));
        long started = System.nanoTime();
        DeliveryLog deliveryLog = DeliveryLog.inMemory();
        // a safety net of a minute: on time only if the transfer task hears the promoted master's wake-ups
        String uri = "redis-delay:" + ON_TIME_QUEUE + "?transferInterval=60s";
        ProducerTemplate template = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).process(new RecordingProcessor(deliveryLog, "node-consumer", 0));
            }
        }).createProducerTemplate();
        RedisServerProcess master = masterOf(ON_TIME_QUEUE);
        RedisServerProcess replica = cluster.replicaOf(master);
        awaitScheduled(template, uri, "before", 300);
        await("delivery before the failover").atMost(Duration.ofSeconds(20))
                .until(() -> deliveryLog.read().finishedIds().contains("before"));

        master.kill();
        cluster.awaitPromotion(replica, PROMOTION_TIMEOUT);
        long dueAt = awaitScheduled(template, uri, "after", 1_000);
        await("delivery after the failover").atMost(Duration.ofSeconds(90))
                .until(() -> deliveryLog.read().finishedIds().contains("after"));

        long late = deliveryLog.read().of("after").get(0).atMillis() - dueAt;
        Tally tally = deliveryLog.read().tally(List.of("before", "after")).report(
                "cluster: failover, then 1 s delay on time", cluster.version(),
                Duration.ofNanos(System.nanoTime() - started), "late=" + late + "ms");
        assertThat(tally.lost()).isEmpty();
        assertThat(late).as("ms the message scheduled after the failover arrived after its due time")
                .isBetween(0L, LATE_TOLERANCE_MILLIS);
    }

    /** Schedules a message, trying again while the send fails (the client has not yet seen the new master). */
    private static long awaitScheduled(ProducerTemplate template, String uri, String id, long delayMillis) {
        AtomicLong dueAt = new AtomicLong();
        await("schedule of " + id + " acknowledged").atMost(Duration.ofSeconds(60)).until(() -> {
            Exchange exchange = template.send(uri, e -> e.getMessage().setHeaders(Map.of(
                    RedisDelayConstants.MESSAGE_ID, id, RedisDelayConstants.DELAY, delayMillis)));
            if (exchange.getException() == null) {
                dueAt.set(exchange.getMessage().getHeader(RedisDelayConstants.SCHEDULED_FOR, Long.class));
            }
            return exchange.getException() == null;
        });
        return dueAt.get();
    }
}
