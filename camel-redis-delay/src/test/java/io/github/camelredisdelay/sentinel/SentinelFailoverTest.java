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
package io.github.camelredisdelay.sentinel;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.internal.QueueKeys;
import io.github.camelredisdelay.sentinel.SteadyProducer.Outcome;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The master of a Sentinel deployment is killed with SIGKILL while a producer node schedules about 100 messages a
 * second (delays of 200-500 ms) and a consumer node delivers them. The Sentinels promote the replica, both nodes follow
 * it, and delivery resumes.
 *
 * <p>
 * Redis replicates asynchronously: a schedule the old master acknowledged just before it died may never have reached
 * the replica, and is then lost (a {@code WAIT} after the schedule closes that window). What must hold today: nothing
 * acknowledged after the promotion is lost, and nothing is delivered that was not sent. Sends that failed during the
 * outage are counted apart from acknowledged ones; the lost ones are reported with the time of their acknowledgement
 * relative to the kill.
 */
@Tag("slow")
class SentinelFailoverTest extends SentinelTestSupport {

    private static final String QUEUE = "failover";
    private static final String URI = "redis-delay:" + QUEUE;
    private static final int RATE = 100;
    /** Bounds the producer: it is stopped long before, once enough sends are acknowledged after the promotion. */
    private static final int MAX_MESSAGES = 30_000;
    private static final long MIN_DELAY_MILLIS = 200;
    private static final long MAX_DELAY_MILLIS = 500;
    private static final int DELIVERIES_BEFORE_KILL = 300;
    private static final int ACKNOWLEDGED_AFTER_PROMOTION = 300;
    private static final Duration STAGE_TIMEOUT = Duration.ofSeconds(60);

    @Test
    void replicaIsPromotedDeliveryResumesAndNothingAcknowledgedAfterThePromotionIsLost() throws Exception {
        long started = System.nanoTime();
        DeliveryRecorder recorder = new DeliveryRecorder();
        startNode(new RouteBuilder() {
            @Override
            public void configure() {
                from(URI + "?visibilityTimeout=2s").process(recorder);
            }
        });
        ProducerTemplate template = startNode().createProducerTemplate();
        RedisServerProcess replica = deployment().dataNodes().get(1);
        long killedAt;
        long deadAt;
        long promotedAt;
        List<Outcome> sends;
        try (SteadyProducer producer = new SteadyProducer(
                template, URI, RATE, MAX_MESSAGES,
                () -> ThreadLocalRandom.current().nextLong(MIN_DELAY_MILLIS, MAX_DELAY_MILLIS + 1)).start()) {
            await("deliveries before the kill").atMost(STAGE_TIMEOUT)
                    .until(() -> recorder.count() >= DELIVERIES_BEFORE_KILL);

            killedAt = System.currentTimeMillis();
            RedisServerProcess killed = deployment().killMaster();
            deadAt = System.currentTimeMillis();
            await("a Sentinel names the replica as master").atMost(STAGE_TIMEOUT).pollInterval(Duration.ofMillis(20))
                    .until(() -> deployment().master() == replica);
            promotedAt = System.currentTimeMillis();
            assertThat(killed).isNotSameAs(replica);
            assertThat(replica.command("ROLE").lines().findFirst()).contains("master");

            await("a delivery after the promotion").atMost(STAGE_TIMEOUT)
                    .until(() -> recorder.firstAtOrAfter(promotedAt).isPresent());
            await("the transfer tasks listen for wake-ups on the new master").atMost(STAGE_TIMEOUT)
                    .until(() -> wakePatternSubscriptions(replica) > 0);
            await("sends acknowledged after the promotion").atMost(STAGE_TIMEOUT)
                    .until(() -> producer.acknowledgedSince(promotedAt) >= ACKNOWLEDGED_AFTER_PROMOTION);
            producer.stop();
            sends = producer.outcomes();
        }
        awaitDrained(replica);

        FailoverTally tally = FailoverTally.of(sends, recorder.deliveries());
        FailoverReport.append(redisVersion(), tally, sends, recorder.deliveries(),
                new FailoverReport.Moments(killedAt, deadAt, promotedAt), Duration.ofNanos(System.nanoTime() - started));
        assertThat(tally.deliveredNeverSent()).as("delivered ids no send attempted").isEmpty();
        assertThat(tally.lostAcknowledgedSince(promotedAt))
                .as("messages acknowledged after the promotion but never delivered").isEmpty();
    }

    /**
     * Pattern subscriptions on a data node: the wake-up channels are heard through one pattern subscription per client
     * and key prefix ({@code <keyPrefix>:*}), and no other client of these tests subscribes to a pattern.
     */
    private long wakePatternSubscriptions(RedisServerProcess node) {
        return Long.parseLong(node.command("PUBSUB", "NUMPAT").trim());
    }

    /**
     * Waits until the new master holds no message of the queue any more, scheduled, ready or leased: nothing further
     * can be delivered, so the counts are final.
     */
    private void awaitDrained(RedisServerProcess master) {
        QueueKeys keys = QueueKeys.of(keyPrefix, QUEUE);
        await("queue drained on the new master").atMost(STAGE_TIMEOUT).pollInterval(Duration.ofMillis(200))
                .until(() -> "0".equals(master.command("HLEN", keys.msg()))
                        && "0".equals(master.command("ZCARD", keys.due())));
    }
}
