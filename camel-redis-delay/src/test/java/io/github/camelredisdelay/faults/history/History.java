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
package io.github.camelredisdelay.faults.history;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import io.github.camelredisdelay.faults.history.Operation.Kind;

/**
 * Everything one round did and saw, for the {@link ContractChecker}.
 *
 * @param threadLogs each producer thread's operations, in order
 * @param redelays   the routes' re-delays, in no particular order
 * @param redrives   the redrives, by start
 * @param unfinished deliveries a live consumer started and never ended
 * @param killed     the consumer JVM killed in the round and what it held, or {@link KilledConsumer#NONE}
 * @param faults     when Redis itself was disturbed in the round; none in a round without Redis faults
 */
public record History(HistoryQueue queue, List<List<Operation>> threadLogs, List<Operation> redelays,
        List<Operation> redrives, List<Delivery> deliveries, List<DeadLetter> deadLetters, List<Delivery> unfinished,
        KilledConsumer killed,
        FaultWindows faults) {

    public int operationCount() {
        return threadLogs.stream().mapToInt(List::size).sum() + redelays.size() + redrives.size();
    }

    /**
     * How much of what the check looks at the round did: a round without deliveries, failures, stored replaces or
     * cancels that answered true checked little.
     */
    public Map<String, Long> exercised() {
        Map<String, Long> counts = new TreeMap<>();
        counts.put("deliveries", (long) deliveries.size());
        counts.put("failed deliveries", deliveries.stream().filter(Delivery::failed).count());
        counts.put("dead letters", (long) deadLetters.size());
        counts.put("stored replaces", operations(Kind.SCHEDULE_REPLACE, Operation::stored));
        counts.put("batch elements stored", operations(Kind.SCHEDULE_GENERATED, op -> op.inBatch && op.stored()));
        counts.put("cancels answering true", operations(Kind.CANCEL, op -> Boolean.TRUE.equals(op.answer)));
        counts.put("reschedules answering true", operations(Kind.RESCHEDULE, op -> Boolean.TRUE.equals(op.answer)));
        counts.put("re-delays", (long) redelays.size());
        counts.put("redrives moving dead letters", redrives.stream().filter(Operation::movedAny).count());
        counts.put("deliveries to receivers",
                deliveries.stream().filter(d -> d.consumer().equals(TemplateReceivers.CONSUMER)).count());
        counts.put("deliveries interrupted by the kill", deliveries.stream().filter(Delivery::interrupted).count());
        counts.put("Redis faults", (long) faults.count());
        counts.put("operations a Redis fault left unsure", threadLogs.stream().flatMap(List::stream)
                .filter(faults::met).count());
        return counts;
    }

    private long operations(Kind kind, java.util.function.Predicate<Operation> which) {
        return threadLogs.stream().flatMap(List::stream).filter(op -> op.kind == kind).filter(which).count();
    }

    /** One line: operations, deliveries, dead letters, the kill and the Redis faults. */
    public String summary() {
        Map<String, Long> byConsumer = new TreeMap<>(
                deliveries.stream().collect(Collectors.groupingBy(Delivery::consumer, Collectors.counting())));
        return operationCount() + " operations, " + deliveries.size() + " deliveries " + byConsumer + ", "
               + deadLetters.size()
               + " dead letters, " + redrives.size() + " redrives moving "
               + redrives.stream().filter(Operation::movedAny).mapToLong(op -> op.moved).sum() + ", "
               + (killed == KilledConsumer.NONE ? "no crashed consumer JVM" : killed.toString())
               + (faults.count() == 0 ? "" : ", Redis faults " + faults.byKind());
    }
}
