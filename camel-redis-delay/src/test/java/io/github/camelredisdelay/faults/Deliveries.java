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
package io.github.camelredisdelay.faults;

import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import io.github.camelredisdelay.faults.DeliveryLog.Entry;
import io.github.camelredisdelay.faults.DeliveryLog.Event;

/**
 * A snapshot of a {@link DeliveryLog}, with the counts the fault tests assert on. A message counts as delivered once a
 * route finished processing it; a duplicate is every further finished delivery of the same message (a delivery
 * interrupted by a crash is a redelivery, not a duplicate).
 */
public record Deliveries(List<Entry> entries) {

    /** Ids of the messages whose processing finished at least once. */
    public Set<String> finishedIds() {
        return entries.stream().filter(e -> e.event() == Event.FINISHED).map(Entry::messageId)
                .collect(Collectors.toCollection(HashSet::new));
    }

    public int finishedCount() {
        return (int) entries.stream().filter(e -> e.event() == Event.FINISHED).count();
    }

    /** Finished deliveries beyond the first of each message. */
    public int duplicates() {
        return finishedCount() - finishedIds().size();
    }

    /** Ids of the messages that finished more than once, sorted. */
    public Set<String> duplicatedIds() {
        Map<String, Long> finishes = entries.stream().filter(e -> e.event() == Event.FINISHED)
                .collect(Collectors.groupingBy(Entry::messageId, Collectors.counting()));
        return finishes.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /**
     * Messages whose first delivery (delivery count 1) started more than once: they were stored twice, since every
     * redelivery of a stored message counts up.
     */
    public Set<String> deliveredAfreshTwice() {
        Map<String, Long> firsts = entries.stream().filter(e -> e.event() == Event.STARTED && e.deliveryCount() == 1)
                .collect(Collectors.groupingBy(Entry::messageId, Collectors.counting()));
        return firsts.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** Deliveries a consumer started but never finished, by message id: it died or hung in the middle. */
    Map<String, Entry> interruptedAt(String consumer) {
        Map<String, Entry> open = new LinkedHashMap<>();
        for (Entry entry : entries) {
            if (entry.consumer().equals(consumer)) {
                if (entry.event() == Event.STARTED) {
                    open.put(entry.messageId(), entry);
                } else {
                    open.remove(entry.messageId());
                }
            }
        }
        return open;
    }

    /** Every event noted about one message, in order. */
    public List<Entry> of(String messageId) {
        return entries.stream().filter(e -> e.messageId().equals(messageId)).toList();
    }

    /** Number of deliveries each consumer finished. */
    Map<String, Long> finishedByConsumer() {
        return entries.stream().filter(e -> e.event() == Event.FINISHED)
                .collect(Collectors.groupingBy(Entry::consumer, Collectors.counting()));
    }

    /** The counts against the acknowledged sends. */
    public Tally tally(Collection<String> sent) {
        Set<String> finished = finishedIds();
        Set<String> lost = new TreeSet<>(sent);
        lost.removeAll(finished);
        Set<String> unacknowledged = new HashSet<>(finished);
        unacknowledged.removeAll(sent);
        return new Tally(
                sent.size(), finished.size() - unacknowledged.size(), duplicates(), lost,
                unacknowledged.size());
    }
}
