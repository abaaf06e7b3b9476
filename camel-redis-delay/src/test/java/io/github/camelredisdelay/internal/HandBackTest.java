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
package io.github.camelredisdelay.internal;

import java.util.List;
import java.util.Map;

import io.github.camelredisdelay.OnDuplicate;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.junit.jupiter.api.Test;
import org.redisson.api.stream.StreamConsumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Messages a stopping or suspended consumer hands back unrouted are taken over at once by the next consumer that looks
 * for expired leases, whatever its visibility timeout.
 */
class HandBackTest extends RedisDelayTestSupport {

    @Test
    void anExtensionThatReachesRedisAfterTheHandBackDoesNotRenewTheLease() {
        QueueShard queue = new QueueShard(ConnectedClient.borrowed(redis()), QueueKeys.of(keyPrefix, "q"));
        queue.schedule("a", EnvelopeCodec.encode(new Envelope("x", Map.of())), DueTime.after(0), OnDuplicate.keep);
        queue.group().create();
        Delivery read = queue.group().readNew("stopping", 10, null).get(0);

        queue.group().handBack("stopping", List.of(read));
        // the lease timer's round, which listed the lease before the hand-back, reaches Redis after it
        queue.group().extendLeases("stopping", List.of(read.entryId())).toCompletableFuture().join();

        Reclaimed next = queue.group().reclaim("next", 30_000, 10, Reclaimed.FROM_START);
        assertThat(next.deliveries()).as("handed back: taken over at once, not after a 30 s visibility timeout")
                .extracting(Delivery::entryId).containsExactly(read.entryId());
        assertThat(next.handedBack()).isEqualTo(1);
    }

    @Test
    void aHandedBackEntryDeletedBeforeItIsTakenOverLeavesThePendingList() {
        QueueShard queue = new QueueShard(ConnectedClient.borrowed(redis()), QueueKeys.of(keyPrefix, "q"));
        for (String id : List.of("a", "b")) {
            queue.schedule(id, EnvelopeCodec.encode(new Envelope(id, Map.of())), DueTime.after(0), OnDuplicate.keep);
        }
        queue.group().create();
        List<Delivery> read = queue.group().readNew("stopping~30000", 2, null);
        queue.group().handBack("stopping~30000", read);
        // deleted behind the component's back while handed back
        redis().getStream(key("q", "ready")).remove(read.get(0).entryId());

        Reclaimed next = queue.group().reclaim("next~30000", 30_000, 10, Reclaimed.FROM_START);

        assertThat(next.deliveries()).extracting(Delivery::messageId).containsExactly("b");
        assertThat(redis().getStream(key("q", "ready")).getPendingInfo(QueueKeys.GROUP).getTotal())
                .as("only b's entry is in flight").isEqualTo(1);
    }

    @Test
    void handedBackMessagesCountAsReadyUntilAConsumerTakesThemOverAndTheirConsumerMayLeaveTheGroup() {
        QueueShard queue = new QueueShard(ConnectedClient.borrowed(redis()), QueueKeys.of(keyPrefix, "q"));
        for (String id : List.of("a", "b", "c")) {
            queue.schedule(id, EnvelopeCodec.encode(new Envelope(id, Map.of())), DueTime.after(0), OnDuplicate.keep);
        }
        queue.group().create();
        List<Delivery> read = queue.group().readNew("stopping~30000", 2, null);

        queue.group().handBack("stopping~30000", List.of(read.get(1)));

        QueueCounts handedBack = queue.counts();
        assertThat(handedBack.ready()).as("c, never read, and the one handed back").isEqualTo(2);
        assertThat(handedBack.inFlight()).isEqualTo(1);
        assertThat(handedBack.oldestOverdueMs()).isGreaterThanOrEqualTo(0);

        Reclaimed next = queue.group().reclaim("next~30000", 30_000, 10, Reclaimed.FROM_START);
        assertThat(next.handedBack()).isEqualTo(1);
        QueueCounts takenOver = queue.counts();
        assertThat(takenOver.ready()).isEqualTo(1);
        assertThat(takenOver.inFlight()).isEqualTo(2);

        queue.group().handBack("stopping~30000", List.of(read.get(0)));
        queue.group().retire("stopping~30000").toCompletableFuture().join();
        assertThat(redis().getStream(key("q", "ready")).listConsumers(QueueKeys.GROUP))
                .as("it holds nothing: what it handed back is held by the group's consumer handed-back")
                .extracting(StreamConsumer::getName).containsExactlyInAnyOrder("next~30000", "handed-back");
        assertThat(queue.counts().ready()).as("still ready after its consumer left the group").isEqualTo(2);
        assertThat(queue.group().reclaim("next~30000", 30_000, 10, Reclaimed.FROM_START).deliveries())
                .extracting(Delivery::entryId).containsExactly(read.get(0).entryId());
    }

    @Test
    void handedBackMessagesBehindAPageOfReplacedOnesAreTakenOverAsHandedBackNotAsExpiredLeases() {
        QueueShard queue = new QueueShard(ConnectedClient.borrowed(redis()), QueueKeys.of(keyPrefix, "q"));
        for (String id : List.of("a", "b", "c", "d")) {
            queue.schedule(id, EnvelopeCodec.encode(new Envelope(id, Map.of())), DueTime.after(0), OnDuplicate.keep);
        }
        queue.group().create();
        List<Delivery> read = queue.group().readNew("stopping~30000", 4, null);
        for (String id : List.of("a", "b")) {
            // replaced while in flight: the versions read are superseded, the new ones wait in the due set
            queue.schedule(id, EnvelopeCodec.encode(new Envelope(id + "2", Map.of())), DueTime.after(60_000),
                    OnDuplicate.replace);
        }
        queue.group().handBack("stopping~30000", read);

        Reclaimed first = queue.group().reclaim("next~30000", 30_000, 2, Reclaimed.FROM_START);
        assertThat(first.expired()).as("no lease expired: a and b are dropped, c and d were handed back").isZero();
        assertThat(first.leftMore()).as("a page of handed-back entries was full: more may wait").isTrue();
        Reclaimed second = queue.group().reclaim("next~30000", 30_000, 2, first.cursor());

        assertThat(second.deliveries()).extracting(Delivery::messageId).containsExactly("c", "d");
        assertThat(second.handedBack()).isEqualTo(2);
    }

    /**
     * Browsing reads at most {@code limit} entries in flight: messages handed back behind more in-flight ones than that
     * are listed all the same, as ready (the dev console's most overdue ready messages come from this list).
     */
    @Test
    void handedBackMessagesBehindMoreMessagesInFlightThanABrowseReadsAreBrowsedAsReady() {
        QueueShard queue = new QueueShard(ConnectedClient.borrowed(redis()), QueueKeys.of(keyPrefix, "q"));
        for (String id : List.of("a", "b", "c", "d", "e")) {
            queue.schedule(id, EnvelopeCodec.encode(new Envelope(id, Map.of())), DueTime.after(0), OnDuplicate.keep);
        }
        queue.group().create();
        queue.group().readNew("holding~30000", 3, null);
        List<Delivery> stopping = queue.group().readNew("stopping~30000", 2, null);
        queue.group().handBack("stopping~30000", stopping);

        List<InspectedMessage> browsed = queue.inspection().browse(2, false);

        assertThat(browsed).filteredOn(message -> message.state().equals("ready")).extracting(InspectedMessage::id)
                .containsExactlyInAnyOrder("d", "e");
    }
}
