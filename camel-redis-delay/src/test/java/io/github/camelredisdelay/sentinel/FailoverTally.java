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

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import io.github.camelredisdelay.sentinel.DeliveryRecorder.Delivery;
import io.github.camelredisdelay.sentinel.SteadyProducer.Outcome;

/**
 * What a failover run sent and delivered. Acknowledged and failed sends are counted apart: a failed send may or may not
 * have been stored, so it is neither lost when it never arrives nor wrong when it does.
 *
 * @param acknowledgedAt  acknowledged message ids with the local time of their acknowledgement
 * @param failed          ids of the sends that failed
 * @param deliveredCounts how often each delivered id was delivered
 */
record FailoverTally(Map<String, Long> acknowledgedAt, Set<String> failed, Map<String, Long> deliveredCounts) {

    static FailoverTally of(Collection<Outcome> sends, Collection<Delivery> deliveries) {
        Map<String, Long> acknowledgedAt = sends.stream().filter(Outcome::acknowledged)
                .collect(Collectors.toMap(Outcome::id, Outcome::atMillis));
        Set<String> failed = sends.stream().filter(send -> !send.acknowledged()).map(Outcome::id)
                .collect(Collectors.toSet());
        Map<String, Long> counts = deliveries.stream()
                .collect(Collectors.groupingBy(Delivery::id, Collectors.counting()));
        return new FailoverTally(Map.copyOf(acknowledgedAt), Set.copyOf(failed), Map.copyOf(counts));
    }

    /** Acknowledged messages that were delivered. */
    int acknowledgedDelivered() {
        return (int) acknowledgedAt.keySet().stream().filter(deliveredCounts::containsKey).count();
    }

    /** Failed sends whose message was delivered nevertheless: stored, but the reply was lost. */
    int failedDelivered() {
        return (int) failed.stream().filter(deliveredCounts::containsKey).count();
    }

    /** Deliveries beyond the first of a message. */
    int duplicates() {
        return (int) deliveredCounts.values().stream().mapToLong(count -> count - 1).sum();
    }

    /** Delivered ids that no send attempted: must be none. */
    Set<String> deliveredNeverSent() {
        Set<String> unknown = new HashSet<>(deliveredCounts.keySet());
        unknown.removeAll(acknowledgedAt.keySet());
        unknown.removeAll(failed);
        return unknown;
    }

    /** Acknowledged messages never delivered, sorted by id, with the local time of their acknowledgement. */
    Map<String, Long> lost() {
        return acknowledgedAt.entrySet().stream().filter(e -> !deliveredCounts.containsKey(e.getKey()))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, TreeMap::new));
    }

    /** Lost messages acknowledged at or after a local time. */
    Set<String> lostAcknowledgedSince(long millis) {
        return lost().entrySet().stream().filter(e -> e.getValue() >= millis).map(Map.Entry::getKey)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** Lost messages with how many ms after {@code killedAt} they were acknowledged (negative: before), by id. */
    Map<String, Long> lostRelativeTo(long killedAt) {
        return lost().entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue() - killedAt,
                (a, b) -> a, TreeMap::new));
    }

    /** Ids delivered more than once, sorted. */
    List<String> duplicatedIds() {
        return deliveredCounts.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey).sorted()
                .toList();
    }
}
