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
package io.github.camelredisdelay;

import java.time.Duration;
import java.util.Collection;
import java.util.Comparator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import io.github.camelredisdelay.internal.Delivery;
import org.redisson.api.stream.PendingEntry;
import org.redisson.api.stream.StreamMessageId;

/**
 * The deliveries a consumer stopped keeping the lease of on purpose while they stay pending under it
 * ({@link Settlement#abandoned}: an exchange that ended with no completion run, a copy dropped before it completed, a
 * stop that cut an exchange off): they are left to expire and be taken over with their delivery counted, so a look for
 * what lost reads left ({@link LostReads}) must not hand them back uncounted. Each is remembered until such a look
 * finds it no longer pending under the consumer, or for a day and an hour: a look for expired leases takes it over once
 * it is idle for the longest visibility timeout of the consumers holding messages, a day at most, not this consumer's
 * own. At most {@value #MOST} are remembered, the newest.
 */
final class AbandonedLeases {

    /** How long one is remembered at most: the longest visibility timeout allowed, and an hour. */
    private static final Duration REMEMBERED = Duration.ofMillis(RedisDelayConfiguration.MAX_VISIBILITY_TIMEOUT_MS)
            .plusHours(1);
    /** The most remembered at once, so that a consumer leaving many to expire keeps little. */
    static final int MOST = 10_000;
    /** How often those remembered for long are looked for, at most. */
    private static final long FORGET_EVERY_NANOS = Duration.ofMinutes(1).toNanos();

    private final Map<StreamMessageId, Abandoned> abandoned = new ConcurrentHashMap<>();
    private final long rememberNanos;
    private final int most;
    private final AtomicLong nextForgetNanos = new AtomicLong(System.nanoTime());

    AbandonedLeases() {
        this(REMEMBERED, MOST);
    }

    /** @param remembered how long one is remembered at most; {@code most}: how many at once */
    AbandonedLeases(Duration remembered, int most) {
        this.rememberNanos = remembered.toNanos();
        this.most = most;
    }

    void add(Delivery delivery) {
        long now = System.nanoTime();
        abandoned.put(delivery.entryId(), new Abandoned(delivery.timesDelivered(), now));
        forgetOld(now);
    }

    /**
     * Whether the consumer left this pending entry to expire, and no read took it again since: its delivery counter is
     * still the one the abandoned delivery read. One a lost read took again (a look for expired leases whose reply
     * never came) counted a delivery that never happened, as any entry a lost read took.
     */
    boolean leftToExpire(PendingEntry pending) {
        Abandoned left = abandoned.get(pending.getId());
        return left != null && pending.getDeliveryCount() <= left.timesDelivered();
    }

    /**
     * Forgets the entries not among these, all that are pending under the consumer: they were taken over or settled.
     */
    void retainPending(Collection<PendingEntry> pending) {
        Set<StreamMessageId> ids = pending.stream().map(PendingEntry::getId).collect(Collectors.toSet());
        abandoned.keySet().retainAll(ids);
    }

    /**
     * Forgets, once a minute at most, those remembered for long, and at once the oldest of more than {@link #most}.
     */
    private void forgetOld(long now) {
        long due = nextForgetNanos.get();
        if (now - due >= 0 && nextForgetNanos.compareAndSet(due, now + FORGET_EVERY_NANOS)) {
            abandoned.values().removeIf(left -> now - left.atNanos() > rememberNanos);
        }
        int over = abandoned.size() - most;
        if (over > 0) {
            abandoned.entrySet().stream().sorted(Comparator.comparingLong(
                    (Map.Entry<StreamMessageId, Abandoned> entry) -> entry.getValue().atNanos()))
                    .limit(over).map(Map.Entry::getKey).toList().forEach(abandoned::remove);
        }
    }

    /** @param timesDelivered the entry's delivery counter as the abandoned delivery read it */
    private record Abandoned(int timesDelivered, long atNanos) {
    }
}
