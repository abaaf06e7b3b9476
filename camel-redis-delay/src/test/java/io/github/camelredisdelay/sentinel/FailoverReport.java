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
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import io.github.camelredisdelay.sentinel.DeliveryRecorder.Delivery;
import io.github.camelredisdelay.sentinel.SteadyProducer.Outcome;

/**
 * The result line of a failover run: the counts of its {@link FailoverTally}, and how long each step of the recovery
 * took, measured from the kill.
 */
final class FailoverReport {

    /**
     * Local times in ms.
     *
     * @param killedAt   when the SIGKILL was sent
     * @param deadAt     when the master was seen dead; a reply it sent just before may still arrive after
     *                   {@code killedAt}
     * @param promotedAt when a Sentinel first named the replica as master
     */
    record Moments(long killedAt, long deadAt, long promotedAt) {
    }

    private FailoverReport() {
    }

    static void append(
            String redisVersion, FailoverTally tally, List<Outcome> sends, List<Delivery> deliveries,
            Moments moments, Duration took) {
        long killedAt = moments.killedAt();
        OptionalLong firstAckFromNewMaster = sends.stream()
                .filter(s -> s.acknowledged() && s.atMillis() > moments.deadAt()).mapToLong(Outcome::atMillis).min();
        OptionalLong firstDeliveryAfterPromotion = deliveries.stream().mapToLong(Delivery::atMillis)
                .filter(at -> at >= moments.promotedAt()).min();
        long[] lateness = latenessOfSentSince(moments.promotedAt(), tally, deliveries);
        Map<String, Long> errors = sends.stream().filter(s -> !s.acknowledged())
                .collect(Collectors.groupingBy(Outcome::error, TreeMap::new, Collectors.counting()));
        String notes = "killToPromotion=" + (moments.promotedAt() - killedAt)
                       + "ms killToFirstDeliveryAfterPromotion=" + since(killedAt, firstDeliveryAfterPromotion)
                       + "ms killToFirstAckFromNewMaster=" + since(killedAt, firstAckFromNewMaster)
                       + "ms latenessOfSentAfterPromotion(p50/p99/max)=" + percentile(lateness, 50) + "/"
                       + percentile(lateness, 99) + "/" + percentile(lateness, 100)
                       + "ms longestSend=" + sends.stream().mapToLong(Outcome::tookMillis).max().orElse(0)
                       + "ms failedSends=" + tally.failed().size() + " failedButDelivered=" + tally.failedDelivered()
                       + " lostAckedMsAfterKill=" + tally.lostRelativeTo(killedAt) + " duplicated=" + tally.duplicatedIds()
                       + " errors=" + errors;
        ResultsFile.append("sentinel: master kill -9, replica promoted, at 100 msg/s", redisVersion,
                tally.acknowledgedAt().size(), tally.acknowledgedDelivered(), tally.duplicates(), tally.lost().size(),
                took, notes);
    }

    private static String since(long start, OptionalLong end) {
        return end.isPresent() ? String.valueOf(end.getAsLong() - start) : "none";
    }

    /** Lateness (ms after the due time) of the deliveries of messages acknowledged at or after a time, sorted. */
    private static long[] latenessOfSentSince(long millis, FailoverTally tally, List<Delivery> deliveries) {
        Set<String> ids = tally.acknowledgedAt().entrySet().stream().filter(e -> e.getValue() >= millis)
                .map(Map.Entry::getKey).collect(Collectors.toSet());
        return deliveries.stream().filter(d -> ids.contains(d.id())).mapToLong(Delivery::lateness).sorted().toArray();
    }

    /** The value below which {@code percent} % of the sorted values lie; -1 when there are none. */
    private static long percentile(long[] sorted, int percent) {
        return sorted.length == 0 ? -1 : sorted[Math.max(0, (int) Math.ceil(sorted.length * percent / 100.0) - 1)];
    }
}
