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

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import io.github.camelredisdelay.faults.Deliveries;
import io.github.camelredisdelay.faults.DeliveryLog.Entry;
import io.github.camelredisdelay.faults.DeliveryLog.Event;
import io.github.camelredisdelay.faults.RecordingProcessor;

/**
 * Records a round: each producer thread's operations with their replies, the routes' re-delays, the redrives, and at
 * the end the deliveries and dead letters the consumers noted in the round's delivery log, as one {@link History}.
 */
public final class HistoryRecorder {

    private final List<List<Operation>> threadLogs = new ArrayList<>();
    private final Queue<Operation> redelays = new ConcurrentLinkedQueue<>();
    private final Queue<Operation> redrives = new ConcurrentLinkedQueue<>();

    HistoryRecorder(int threads) {
        for (int t = 0; t < threads; t++) {
            threadLogs.add(Collections.synchronizedList(new ArrayList<>()));
        }
    }

    int threads() {
        return threadLogs.size();
    }

    /** The log producer thread {@code thread} appends its operations to, in the order it sent them. */
    List<Operation> threadLog(int thread) {
        return threadLogs.get(thread);
    }

    void redelayed(Operation op) {
        redelays.add(op);
    }

    void redrove(Operation op) {
        redrives.add(op);
    }

    /**
     * The history, from the operations and the delivery log (history consumers note deliveries under their bodies):
     * each start paired with the end the same consumer noted for the same body and count; a start the killed consumer
     * never ended is a delivery the kill interrupted.
     *
     * @param killed what the consumer JVM held when it was killed, {@link KilledConsumer#NONE} when no JVM was killed
     * @param faults when Redis itself was disturbed
     */
    History history(HistoryQueue queue, Deliveries log, KilledConsumer killed, FaultWindows faults) {
        List<Delivery> deliveries = new ArrayList<>();
        List<DeadLetter> deadLetters = new ArrayList<>();
        List<Delivery> unfinished = new ArrayList<>();
        Map<String, Deque<Entry>> started = new HashMap<>();
        for (Entry entry : log.entries()) {
            String key = entry.consumer() + "\t" + entry.messageId() + "\t" + entry.deliveryCount();
            if (entry.consumer().equals(NodeRoutes.DEAD_LETTER_CONSUMER)) {
                if (entry.event() == Event.STARTED) {
                    DeliveryNote note = DeliveryNote.decode(entry.note());
                    deadLetters.add(new DeadLetter(
                            note.id(), entry.messageId(), note.originalQueue(),
                            note.lastError(), entry.deliveryCount(), entry.atMillis()));
                }
            } else if (entry.event() == Event.STARTED) {
                started.computeIfAbsent(key, k -> new ArrayDeque<>()).add(entry);
            } else {
                Deque<Entry> open = started.get(key);
                if (open != null && !open.isEmpty()) {
                    deliveries.add(delivery(open.poll(), entry.atMillis(), RecordingProcessor.FAILED.equals(entry.note()),
                            false));
                }
            }
        }
        started.values().forEach(open -> open.forEach(start -> {
            boolean interrupted = start.consumer().equals(killed.consumer());
            (interrupted ? deliveries : unfinished)
                    .add(delivery(start, interrupted ? killed.killedAt() : Long.MAX_VALUE, true, interrupted));
        }));
        return new History(
                queue, List.copyOf(threadLogs), List.copyOf(redelays),
                redrives.stream().sorted(Comparator.comparingLong(op -> op.start)).toList(), deliveries, deadLetters,
                unfinished, killed, faults);
    }

    private static Delivery delivery(Entry start, long end, boolean failed, boolean interrupted) {
        DeliveryNote note = DeliveryNote.decode(start.note());
        return new Delivery(
                start.consumer(), note.id(), start.messageId(), start.deliveryCount(), note.scheduledFor(),
                note.scheduledAt(), start.atMillis(), end, failed, note.lastError(), interrupted);
    }
}
