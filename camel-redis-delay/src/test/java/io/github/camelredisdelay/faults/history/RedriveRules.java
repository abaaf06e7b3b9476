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

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static io.github.camelredisdelay.faults.history.HistoryQueue.MAX_DELIVERIES;
import static io.github.camelredisdelay.faults.history.MessageVersion.CLOCK_SLACK_MS;

/**
 * The rules on redrives (the component page's "Redriving dead letters"), over the lives they gave versions
 * ({@link RedrivenLives}); near a Redis fault a life may be a copy a fault left late, so what each life shows passes
 * there. A redrive fails only near a Redis fault. It moves each dead letter at most once, only one that was
 * dead-lettered before it ended, only of the id it names, at most as many as its limit; each comes back due at once,
 * its first delivery without a last error. Its answer, when sure, is how many it moved as their deliveries show (every
 * one it moved is delivered again), less those the dead-letter queue's consumer fetched meanwhile, which it may leave
 * out ({@link MessageVersion#consumedWhileRedriven}).
 */
final class RedriveRules {

    private final History history;
    private final Findings findings;

    RedriveRules(History history, Findings findings) {
        this.history = history;
        this.findings = findings;
    }

    void check(List<MessageVersion> lives) {
        Map<Operation, List<MessageVersion>> byRedrive = lives.stream()
                .collect(Collectors.groupingBy(life -> life.created, IdentityHashMap::new, Collectors.toList()));
        for (Operation redrive : history.redrives()) {
            check(redrive, byRedrive.getOrDefault(redrive, List.of()));
        }
    }

    private void check(Operation redrive, List<MessageVersion> moved) {
        findings.covered("redrive " + (redrive.id != null ? "by id" : redrive.redriveLimit != null ? "with a limit" : "of all")
                         + " moving " + (moved.isEmpty() ? "none" : moved.size() == 1 ? "one" : "several"));
        if (redrive.error != null && !history.faults().excuses(redrive)) {
            findings.violation("redrive failed away from any Redis fault " + redrive);
        }
        if (moved.stream().map(life -> life.body).distinct().count() < moved.size()) {
            findings.violation("a redrive moved a dead letter back twice " + redrive + " " + moved);
        }
        for (MessageVersion life : moved) {
            movedADeadLetterOfWhatItAsked(redrive, life);
            comesBackDueAtOnce(redrive, life);
        }
        answersWhatItMoved(redrive, moved);
    }

    /**
     * What it moves back was dead-lettered before it ended (its life before ended in a last failure), of the id it
     * names.
     */
    private void movedADeadLetterOfWhatItAsked(Operation redrive, MessageVersion life) {
        MessageVersion before = life.redrivenFrom;
        Delivery last = before.deliveries.isEmpty() ? null : before.deliveries.get(before.deliveries.size() - 1);
        if (last == null || !last.failed() || last.start() > redrive.end + CLOCK_SLACK_MS
                || last.count() < MAX_DELIVERIES && !before.touchedBy(history.killed()) && !before.disturbed()) {
            findings.violationIfSure(!life.disturbed(),
                    "a redrive moved back what was not dead-lettered " + life + " after " + life.redrivenFrom);
        }
        if (redrive.id != null && !redrive.id.equals(life.id)) {
            findings.violation("a redrive by id moved another id back " + life);
        }
    }

    /** A redriven dead letter is due at once: its first delivery's {@code ScheduledFor} lies within the redrive. */
    private void comesBackDueAtOnce(Operation redrive, MessageVersion life) {
        Delivery first = life.deliveries.get(0);
        if (first.scheduledFor() == null || first.scheduledFor() < redrive.start - CLOCK_SLACK_MS
                || first.scheduledFor() > redrive.end + CLOCK_SLACK_MS) {
            findings.violationIfSure(!life.disturbed(),
                    "a redriven dead letter is not due at the redrive " + first + " " + life);
        }
    }

    /**
     * The count it answers: at most its limit (1 by id), and, unless a Redis fault left it unsure, what it moved as the
     * deliveries show, less at most those also consumed from the dead-letter queue meanwhile.
     */
    private void answersWhatItMoved(Operation redrive, List<MessageVersion> moved) {
        if (redrive.error != null) {
            return;
        }
        long most = redrive.id != null ? 1 : redrive.redriveLimit != null ? redrive.redriveLimit : Long.MAX_VALUE;
        if (redrive.moved == null || redrive.moved < 0 || redrive.moved > most || moved.size() > most) {
            findings.violation("a redrive moved more than it asked for, or answered no count " + redrive + " " + moved);
            return;
        }
        long alsoConsumed = moved.stream().filter(life -> life.redrivenFrom.deadLetters.stream()
                .anyMatch(life.redrivenFrom::consumedWhileRedriven)).count();
        if (redrive.moved > moved.size() || redrive.moved < moved.size() - alsoConsumed) {
            findings.violationIfSure(!history.faults().unsure(redrive),
                    "a redrive answered " + redrive.moved + " moved, its dead letters delivered again show "
                                                                        + moved.size() + " (" + alsoConsumed
                                                                        + " also consumed from the dead-letter queue) "
                                                                        + redrive + " " + moved);
        }
    }
}
