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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The claims a redrive takes on dead letters (redrive-claim.lua) go with the dead letters: none is left in the
 * dead-letter queue's {@code redrive} hash once the dead letter it names is gone, also when a consumer of the
 * dead-letter queue fetched the dead letter while a redrive was copying it back ({@link Redrive}'s "both have it now").
 */
class RedriveClaimTest extends RedisDelayTestSupport {

    private QueueShard deadLetters;

    @BeforeEach
    void createDeadLetterQueue() {
        deadLetters = new QueueShard(ConnectedClient.borrowed(redis()), QueueKeys.of(keyPrefix, "q.dead"));
        deadLetters.group().create();
    }

    /**
     * Replays a redrive's steps for one dead letter (list, claim, copy back, remove: {@link Redrive}) with a consumer
     * of the dead-letter queue fetching that dead letter after the claim, and acknowledging it before or after the
     * redrive's removal finds it fetched.
     */
    @ParameterizedTest
    @ValueSource(booleans = { true, false })
    void aDeadLetterItsConsumerFetchedWhileARedriveCopiedItLeavesNoRedriveClaimOnceSettled(boolean ackedBeforeRemoval) {
        deadLetters.schedule("a", EnvelopeCodec.encode(new Envelope("dead", Map.of())), DueTime.after(0), OnDuplicate.keep);
        ReadyListing listing = deadLetters.inspection().readyListing("");
        listing.fixLast();
        List<ReadyEntry> claimed = deadLetters.inspection().claimForRedrive(listing.next(10), "redrive-1", 60_000);
        assertThat(claimed).extracting(ReadyEntry::messageId).containsExactly("a");

        List<Delivery> fetched = deadLetters.group().readNew("dead-letter-consumer~30000", 10, null);
        assertThat(fetched).hasSize(1);
        if (ackedBeforeRemoval) {
            deadLetters.group().ack(fetched);
        }
        // settled by its consumer, it is gone from the dead-letter queue; else that consumer holds it
        assertThat(deadLetters.inspection().discard(claimed.get(0)))
                .isEqualTo(ackedBeforeRemoval ? ShardInspection.Discarded.GONE : ShardInspection.Discarded.IN_FLIGHT);
        if (!ackedBeforeRemoval) {
            deadLetters.group().ack(fetched);
        }

        assertThat(redis().getMap(key("q.dead", "msg")).isExists()).as("the dead letter").isFalse();
        assertThat(redis().getMap(key("q.dead", "redrive")).readAllMap()).as("redrive claims left").isEmpty();
    }

    /**
     * A consumer of the dead-letter queue fetches a dead letter between a redrive's listing and its claim: the redrive
     * leaves it to that consumer, rather than copy back a message the consumer is working on, and claims nothing.
     */
    @Test
    void aDeadLetterItsConsumerFetchedAfterTheListingIsNotClaimed() {
        deadLetters.schedule("a", EnvelopeCodec.encode(new Envelope("dead", Map.of())), DueTime.after(0), OnDuplicate.keep);
        ReadyListing listing = deadLetters.inspection().readyListing("");
        listing.fixLast();
        List<ReadyEntry> listed = listing.next(10);
        assertThat(deadLetters.group().readNew("dead-letter-consumer~30000", 10, null)).hasSize(1);

        assertThat(deadLetters.inspection().claimForRedrive(listed, "redrive-1", 60_000)).isEmpty();
        assertThat(redis().getMap(key("q.dead", "redrive")).isExists()).as("redrive claims").isFalse();
    }

    /**
     * A redrive dies after claiming a dead letter (its claim lapses), and a consumer of the dead-letter queue then
     * settles that dead letter: the next redrive of the queue leaves no claim behind either.
     */
    @Test
    void theClaimOfARedriveThatDiedGoesWithTheNextRedriveOnceItsDeadLetterIsGone() throws Exception {
        deadLetters.schedule("a", EnvelopeCodec.encode(new Envelope("dead", Map.of())), DueTime.after(0), OnDuplicate.keep);
        ReadyListing listing = deadLetters.inspection().readyListing("");
        listing.fixLast();
        // claimed for 0 ms: lapsed at once, as the claims of a redrive that died do after a minute
        assertThat(deadLetters.inspection().claimForRedrive(listing.next(10), "died", 0)).hasSize(1);
        deadLetters.group().ack(deadLetters.group().readNew("dead-letter-consumer~30000", 10, null));
        deadLetters.schedule("b", EnvelopeCodec.encode(new Envelope("dead too", Map.of())), DueTime.after(0),
                OnDuplicate.keep);

        Object moved = startContext().createProducerTemplate().requestBody("redis-delay:q?operation=redrive", (Object) null);

        assertThat(moved).isEqualTo(1L);
        assertThat(redis().getMap(key("q.dead", "redrive")).readAllMap()).as("redrive claims left").isEmpty();
    }

    /**
     * A consumer of the dead-letter queue fetches a dead letter a redrive claimed and fails it, so its retry schedules
     * it again in the dead-letter queue: the redrive's removal finds its entry gone, but the dead letter is still
     * there, and is told so, not that it left.
     */
    @Test
    void aDeadLetterItsConsumerFailedAndScheduledAgainWhileARedriveCopiedItIsNotGone() {
        deadLetters.schedule("a", EnvelopeCodec.encode(new Envelope("dead", Map.of())), DueTime.after(0), OnDuplicate.keep);
        ReadyListing listing = deadLetters.inspection().readyListing("");
        listing.fixLast();
        List<ReadyEntry> claimed = deadLetters.inspection().claimForRedrive(listing.next(10), "redrive-1", 60_000);
        List<Delivery> fetched = deadLetters.group().readNew("dead-letter-consumer~30000", 10, null);
        assertThat(deadLetters.group().retry("dead-letter-consumer~30000", fetched.get(0), 60_000, "boom")).isEmpty();

        ShardInspection.Discarded discarded = deadLetters.inspection().discard(claimed.get(0));

        assertThat(deadLetters.inspection().peek("a")).as("the dead letter, still in the dead-letter queue").isNotNull();
        assertThat(discarded).isEqualTo(ShardInspection.Discarded.IN_FLIGHT);
    }
}
