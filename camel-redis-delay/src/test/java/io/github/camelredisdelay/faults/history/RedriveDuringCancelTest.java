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

import java.util.ArrayList;
import java.util.List;

import io.github.camelredisdelay.faults.history.Operation.Kind;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The history check of a redrive by id that ran while the id's thread cancelled the version the queue held: the cancel
 * removed that version (it answered true), and the redrive, finding the id free, moved the dead letter back. The cancel
 * ended the version it removed, not the redriven life: nothing was lost and the redrive kept the contract. The timeline
 * of seed 88313061985998 of {@code OutageHistoryTest}, whose check read it as a redrive moving a dead letter back while
 * the queue held its id, and as a version never delivered. A cancel that answered false removed nothing: the version
 * still held the id, and the redrive moving the dead letter back breaks the contract.
 */
class RedriveDuringCancelTest {

    private static final String ID = "t0-k1";
    private static final String DEAD = "v60-t0-f9-p8-r0";
    private static final String REPLACEMENT = "v140-t0-f0-p1-r0";
    private static final long T = 1795960980000L;

    @Test
    void aCancelDuringARedriveByIdEndsTheVersionTheQueueHeld() {
        assertThat(ContractChecker.check(history(true)).violations()).isEmpty();
    }

    @Test
    void aCancelThatRemovedNothingLeftTheVersionTheQueueHeld() {
        assertThat(ContractChecker.check(history(false)).violations())
                .anyMatch(violation -> violation.startsWith("a redrive moved a dead letter back while the queue held its id"));
    }

    private static History history(boolean cancelled) {
        List<Operation> thread = new ArrayList<>();
        thread.add(schedule(Kind.SCHEDULE_KEEP, DEAD, 0, 1, 50));
        thread.add(schedule(Kind.SCHEDULE_REPLACE, REPLACEMENT, 992, 993, 158));
        Operation cancel = new Operation(Kind.CANCEL, "A");
        cancel.id = ID;
        cancel.body = "v141-t0-f0-p3-r0";
        cancel.start = T + 1050;
        cancel.end = T + 1054;
        cancel.answer = cancelled;
        thread.add(cancel);

        Operation redrive = new Operation(Kind.REDRIVE, "B");
        redrive.id = ID;
        redrive.start = T + 1049;
        redrive.end = T + 1061;
        redrive.moved = 1L;

        List<Delivery> deliveries = List.of(
                // the version dead-lettered before the replace
                failed("A", DEAD, 1, T + 51, T + 1, 60, null),
                failed("B", DEAD, 2, T + 210, T + 1, 215, "planned failure 1"),
                failed("B", DEAD, 3, T + 615, T + 1, 620, "planned failure 2"),
                // its life from the redrive on, due at once, dead-lettered again
                failed("B", DEAD, 1, T + 1056, T + 1056, 1058, null),
                failed("A", DEAD, 2, T + 1216, T + 1056, 1218, "planned failure 1"),
                failed("B", DEAD, 3, T + 1627, T + 1056, 1628, "planned failure 2"));
        List<DeadLetter> deadLetters = List.of(
                new DeadLetter(ID, DEAD, "hist0", "java.lang.IllegalStateException: planned failure 3", 1, T + 5151));

        return new History(
                new HistoryQueue("hist0", 4, 2), List.of(thread), List.of(), List.of(redrive), deliveries, deadLetters,
                List.of(), KilledConsumer.NONE, new FaultWindows());
    }

    private static Operation schedule(Kind kind, String body, long start, long end, long delay) {
        Operation op = new Operation(kind, "B");
        op.id = ID;
        op.body = body;
        op.start = T + start;
        op.end = T + end;
        op.delay = delay;
        op.duplicate = false;
        op.scheduledFor = T + end + delay;
        return op;
    }

    private static Delivery failed(
            String consumer, String body, int count, long scheduledFor, long scheduledAt, long start, String lastError) {
        return new Delivery(
                consumer, ID, body, count, scheduledFor, scheduledAt, T + start, T + start + 8, true,
                lastError == null ? null : "java.lang.IllegalStateException: " + lastError, false);
    }
}
