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

import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.github.camelredisdelay.DuplicateMessageException;
import io.github.camelredisdelay.faults.history.Operation.Kind;

import static io.github.camelredisdelay.faults.history.MessageVersion.CLOCK_SLACK_MS;

/**
 * The rules on replies: replays a producer thread's operations in order over the versions of its ids (an id is only
 * ever used by one thread), checking each reply against what the id's version was doing then, and builds the versions
 * the {@link DeliveryRules} check. A version counts as scheduled only when it surely was (see
 * {@link MessageVersion#surelyScheduled}), finished only when it surely was: near a state change either reply passes.
 */
final class ReplyRules {

    private final Findings findings;
    private final Map<String, List<Delivery>> deliveriesByBody;
    private final Map<String, List<DeadLetter>> deadLettersByBody;
    private final List<DeadLetter> deadLetters;
    /** Every stored version, by body. */
    private final Map<String, MessageVersion> versions = new HashMap<>();

    ReplyRules(History history, Findings findings) {
        this.findings = findings;
        this.deliveriesByBody = history.deliveries().stream().sorted(Comparator.comparingLong(Delivery::start))
                .collect(Collectors.groupingBy(Delivery::body));
        this.deadLettersByBody = history.deadLetters().stream().collect(Collectors.groupingBy(DeadLetter::body));
        this.deadLetters = history.deadLetters();
    }

    Map<String, MessageVersion> versions() {
        return versions;
    }

    /** Replays one producer thread's operations. */
    void replay(List<Operation> log) {
        Map<String, MessageVersion> current = new HashMap<>();
        for (Operation op : log) {
            if (op.id == null) {
                findings.violation("no id after " + op);
                continue;
            }
            MessageVersion version = current.get(op.id);
            findings.covered(op.kind + " on " + stateOf(version, op) + " -> " + outcomeOf(op));
            switch (op.kind) {
                case CANCEL -> cancel(op, version, current);
                case RESCHEDULE -> reschedule(op, version);
                case PEEK -> peek(op, version);
                default -> schedule(op, version, current);
            }
        }
    }

    /** The routes' re-delays, each a new version of the delivered one's id. */
    void redelays(List<Operation> redelays) {
        for (Operation op : redelays.stream().sorted(Comparator.comparingLong(o -> o.start)).toList()) {
            findings.covered("re-delay from a delivery");
            MessageVersion parent = versions.get(op.parentBody);
            if (parent == null) {
                findings.violation("re-delay of a body no stored version has " + op);
            } else {
                parent.redelayedBy = op;
            }
            if (redelayStoresANewVersion(op)) {
                store(op);
            }
        }
    }

    private void schedule(Operation op, MessageVersion version, Map<String, MessageVersion> current) {
        boolean refused = op.error instanceof DuplicateMessageException;
        if (!scheduleFailsOnlyAsADuplicate(op, refused)) {
            return;
        }
        if (op.kind == Kind.SCHEDULE_FAIL) {
            failRefusesOnlyAnUnfinishedMessage(op, version, refused);
            if (refused) {
                return;
            }
        }
        if (Boolean.TRUE.equals(op.duplicate)) {
            keepReportsOnlyAnUnfinishedMessage(op, version);
            return;
        }
        if (op.duplicate == null) {
            findings.violation("no Duplicate header " + op);
            return;
        }
        storedAtItsDelay(op);
        storedBesideNoUnfinishedMessage(op, version);
        if (version != null) {
            if (op.kind == Kind.SCHEDULE_REPLACE && !version.surelyFinishedBefore(op.start)) {
                version.supersededBy = op;
            }
            version.followedBy = op;
        }
        current.put(op.id, store(op));
    }

    private MessageVersion store(Operation op) {
        MessageVersion version = new MessageVersion(
                op, deliveriesByBody.getOrDefault(op.body, List.of()),
                deadLettersByBody.getOrDefault(op.body, List.of()));
        if (versions.put(op.body, version) != null) {
            findings.violation("body reused " + op);
        }
        return version;
    }

    /** A schedule fails only with {@code DuplicateMessageException}, and only under {@code onDuplicate=fail}. */
    private boolean scheduleFailsOnlyAsADuplicate(Operation op, boolean refused) {
        if (op.error != null && !(refused && op.kind == Kind.SCHEDULE_FAIL)) {
            findings.violation("schedule failed: " + op);
            return false;
        }
        return true;
    }

    /** {@code fail}: an existing unfinished message refuses the schedule; with none, it is stored. */
    private void failRefusesOnlyAnUnfinishedMessage(Operation op, MessageVersion version, boolean refused) {
        if (refused && (version == null || version.surelyFinishedBefore(op.start))) {
            findings.violation("onDuplicate=fail refused an id with no message " + op + " previous " + version);
        }
        if (!refused && version != null && !version.finishedBefore(op.end)) {
            findings.violation("onDuplicate=fail stored while the previous version had not finished " + op + " previous "
                               + version);
        }
    }

    /**
     * {@code Duplicate=true} only under {@code keep} and only for an existing unfinished message, reporting its due
     * time while it is scheduled.
     */
    private void keepReportsOnlyAnUnfinishedMessage(Operation op, MessageVersion version) {
        if (op.kind == Kind.SCHEDULE_REPLACE) {
            findings.violation("replace answered Duplicate=true " + op);
        }
        if (version == null) {
            findings.violation("Duplicate=true for an id with no stored version " + op);
            return;
        }
        if (version.surelyFinishedBefore(op.start)) {
            findings.violation("Duplicate=true though the previous version finished long before " + op + " previous "
                               + version);
        }
        if (op.scheduledFor != null && version.startedBefore(op.end + CLOCK_SLACK_MS).isEmpty()
                && !version.rescheduleOverlaps(op.start) && op.scheduledFor != version.dueAt(op.start)) {
            findings.violation("kept duplicate reports a due time other than the kept message's " + op + " previous "
                               + version);
        }
    }

    /** A stored schedule's {@code ScheduledFor} is the time of the call plus its delay. */
    private void storedAtItsDelay(Operation op) {
        if (!dueTimeOfTheCall(op)) {
            findings.violation("scheduledFor out of [start+delay, end+delay] " + op);
        }
    }

    /** {@code keep} and {@code fail} store nothing while the id's previous message is scheduled or unfinished. */
    private void storedBesideNoUnfinishedMessage(Operation op, MessageVersion version) {
        if (version == null || op.kind == Kind.SCHEDULE_REPLACE) {
            return;
        }
        if (version.surelyScheduled(op.start, op.end)) {
            findings.violation("keep stored over a scheduled message " + op + " previous " + version);
        } else if (!version.finishedBefore(op.end)) {
            findings.violation("keep stored a new version while the previous had not finished " + op + " previous "
                               + version);
        }
    }

    /** A re-delay from the delivered exchange always stores a new version at its delay. */
    private boolean redelayStoresANewVersion(Operation op) {
        if (op.error != null || !Boolean.FALSE.equals(op.duplicate) || !dueTimeOfTheCall(op)) {
            findings.violation("re-delay not stored as a new version " + op);
            return false;
        }
        return true;
    }

    /** Cancel: {@code true} removes a scheduled message, {@code false} for an unknown, due or finished one. */
    private void cancel(Operation op, MessageVersion version, Map<String, MessageVersion> current) {
        if (op.error != null) {
            findings.violation("cancel failed " + op);
            return;
        }
        if (op.scheduledFor != null) {
            findings.violation("cancel left a ScheduledFor " + op);
        }
        if (Boolean.TRUE.equals(op.answer)) {
            if (version == null) {
                findings.violation("cancel answered true for an id with no stored version " + op);
                return;
            }
            if (version.surelyFinishedBefore(op.start)) {
                findings.violation("cancel answered true for a finished message " + op + " " + version);
            }
            version.cancelledBy = op;
            current.remove(op.id);
        } else if (version != null && version.surelyScheduled(op.start, op.end)) {
            findings.violation("cancel answered false for a scheduled message " + op + " " + version);
        }
    }

    /** Reschedule: {@code true} with the new due time for a scheduled message, {@code false} without one otherwise. */
    private void reschedule(Operation op, MessageVersion version) {
        if (op.error != null) {
            findings.violation("reschedule failed " + op);
            return;
        }
        if (!Boolean.TRUE.equals(op.answer)) {
            if (op.scheduledFor != null) {
                findings.violation("reschedule answering false left a ScheduledFor " + op);
            }
            if (version != null && version.surelyScheduled(op.start, op.end)) {
                findings.violation("reschedule answered false for a scheduled message " + op + " " + version);
            }
            return;
        }
        if (version == null) {
            findings.violation("reschedule answered true for an id with no stored version " + op);
            return;
        }
        if (version.surelyFinishedBefore(op.start)) {
            findings.violation("reschedule answered true for a finished message " + op + " " + version);
        }
        if (dueTimeOfTheCall(op)) {
            version.reschedules.add(new MessageVersion.Reschedule(op.start, op.end, op.scheduledFor));
        } else {
            findings.violation("reschedule's scheduledFor out of [start+delay, end+delay] " + op);
        }
    }

    /** Peek shows a scheduled message as it is stored, and nothing for an id that never had one. */
    private void peek(Operation op, MessageVersion version) {
        if (op.error != null) {
            findings.violation("peek failed " + op);
            return;
        }
        String peeked = op.peekedBody == null ? null : op.peekedBody.toString();
        if (peeked != null && !ScriptedBody.PATTERN.matcher(peeked).matches()) {
            findings.violation("peek returned a body no schedule sent " + op);
        }
        if (version != null && version.surelyScheduled(op.start, op.end)
                && (!"scheduled".equals(op.state) || !version.body.equals(peeked) || op.scheduledFor == null
                        || op.scheduledFor != version.dueAt(op.start) || op.peekedCount == null
                        || op.peekedCount != 0)) {
            findings.violation("peek of a scheduled message does not show it " + op + " " + version);
        }
        if (version == null && op.state != null && deadLetters.stream().noneMatch(d -> op.id.equals(d.id()))) {
            findings.violation("peek found a message of an id with none stored nor dead-lettered " + op);
        }
        if (op.state == null && peeked != null) {
            findings.violation("peek without a state returned a body " + op);
        }
    }

    /** Whether the call's {@code ScheduledFor} lies within its delay from its start and end. */
    private static boolean dueTimeOfTheCall(Operation op) {
        return op.scheduledFor != null && op.scheduledFor >= op.start + op.delay - CLOCK_SLACK_MS
                && op.scheduledFor <= op.end + op.delay + CLOCK_SLACK_MS;
    }

    private static String stateOf(MessageVersion version, Operation op) {
        if (version == null) {
            return "absent";
        }
        if (version.surelyScheduled(op.start, op.end)) {
            return "scheduled";
        }
        if (version.finishedBefore(op.start)) {
            return "finished";
        }
        if (version.deliveries.stream().anyMatch(d -> d.start() < op.start && d.end() > op.end)) {
            return "inflight";
        }
        return version.startedBefore(op.start).isEmpty() ? "first-due-unsure" : "retrying";
    }

    private static String outcomeOf(Operation op) {
        return op.error != null ? op.error.getClass().getSimpleName()
                : op.answer != null ? "answer=" + op.answer : "duplicate=" + op.duplicate;
    }
}
