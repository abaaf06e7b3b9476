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
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Queue;
import java.util.Set;
import java.util.stream.Collectors;

import io.github.camelredisdelay.DuplicateMessageException;
import io.github.camelredisdelay.faults.history.Operation.Kind;

import static io.github.camelredisdelay.faults.history.MessageVersion.CLOCK_SLACK_MS;

/**
 * The rules on replies: replays a producer thread's operations in order over the versions of its ids (an id is only
 * ever used by one thread), checking each reply against what the id's version was doing then, and builds the versions
 * the {@link DeliveryRules} check. A version counts as scheduled only when it surely was (see
 * {@link MessageVersion#surelyScheduled}), finished only when it surely was: near a state change either reply passes.
 * <p>
 * Near a fault of Redis itself ({@link FaultWindows}) an operation may fail, and one that failed, took longer than a
 * reply can or met a fault is unsure: Redis may have carried it out or not, or twice (the client repeats a call that
 * got no answer). Not a schedule under the application's id nor a cancel that got a reply: the component sends those
 * once, so the reply is their one run's, and only their failure leaves them unsure. Its id stays unsure until a sure
 * {@code keep} or {@code fail} stores a new version. The rules that need a sure reply then let it pass; what holds
 * whatever happened still holds: a failure only near a fault, a schedule that failed as not stored never delivered, a
 * cancel that surely answered true ends its version.
 * <p>
 * A dead letter a redrive moves back is the id's again: its life ({@link RedrivenLives}) becomes the id's current
 * version from the redrive's start on, for the operations that follow (a {@code keep} finds it, a {@code replace}
 * replaces it), and one that ran while the redrive did is unsure. A cancel that ran while the redrive did may have
 * removed the version before it (the redrive then found the id free): that version is maybe removed.
 */
final class ReplyRules {

    /** What the failure of a schedule that was never sent says. */
    private static final String NOT_SENT = "was not sent, so the message is not stored";

    private final Findings findings;
    private final FaultWindows faults;
    private final Map<String, List<Delivery>> deliveriesByBody;
    private final Map<String, List<DeadLetter>> deadLettersByBody;
    private final List<DeadLetter> deadLetters;
    /** The ids of the deliveries that failed for the last time: dead-lettered, whether got or redriven since. */
    private final Set<String> lastFailures;
    private final KilledConsumer killed;
    private final RedrivenLives redrivenLives;
    /** Every stored version, by body. */
    private final Map<String, MessageVersion> versions = new HashMap<>();
    /** The lives redrives gave the versions. */
    private final List<MessageVersion> lives = new ArrayList<>();
    /** Of each id, the lives the replay of its thread has not met yet, by the start of their redrive. */
    private final Map<String, Queue<MessageVersion>> pendingLives = new HashMap<>();

    ReplyRules(History history, Findings findings) {
        this.findings = findings;
        this.faults = history.faults();
        this.deliveriesByBody = history.deliveries().stream().sorted(Comparator.comparingLong(Delivery::start))
                .collect(Collectors.groupingBy(Delivery::body));
        this.deadLettersByBody = history.deadLetters().stream().collect(Collectors.groupingBy(DeadLetter::body));
        this.deadLetters = history.deadLetters();
        this.lastFailures = history.deliveries().stream()
                .filter(d -> d.failed() && d.count() >= HistoryQueue.MAX_DELIVERIES).map(Delivery::id)
                .collect(Collectors.toSet());
        this.killed = history.killed();
        this.redrivenLives = new RedrivenLives(history.redrives(), faults);
    }

    Map<String, MessageVersion> versions() {
        return versions;
    }

    List<MessageVersion> lives() {
        return lives;
    }

    /** Replays one producer thread's operations. */
    void replay(List<Operation> log) {
        Map<String, MessageVersion> current = new HashMap<>();
        Set<String> unsureIds = new HashSet<>();
        for (Operation op : log) {
            boolean unsure = sentOnce(op) ? op.error != null : faults.unsure(op);
            if (op.id == null) {
                if (unsure && op.kind.schedules()) {
                    failedOnlyNearAFault(op);
                    maybeStored(op, null);
                } else {
                    findings.violation("no id after " + op);
                }
                continue;
            }
            unsure |= meetRedrivenLives(op, current);
            boolean sure = !unsure && !unsureIds.contains(op.id);
            MessageVersion version = current.get(op.id);
            findings.covered(op.kind + " on " + stateOf(version, op) + (sure ? "" : " [unsure]") + " -> " + outcomeOf(op));
            if (unsure && op.kind != Kind.RESCHEDULE && op.kind != Kind.PEEK && !op.stored()) {
                // it may have stored or removed a version its reply does not tell
                unsureIds.add(op.id);
            }
            switch (op.kind) {
                case CANCEL -> cancel(op, version, current, sure);
                case RESCHEDULE -> reschedule(op, version, sure);
                case PEEK -> peek(op, version, sure);
                default -> schedule(op, version, current, sure);
            }
            if (!unsure && op.stored() && op.kind != Kind.SCHEDULE_REPLACE) {
                // a keep or fail that stored: the id held nothing unfinished, its state is known again
                unsureIds.remove(op.id);
            }
        }
    }

    /**
     * The routes' re-delays, each a new version of the delivered one's id. A version delivered twice (its
     * acknowledgement lost to a fault) re-delays twice: the later re-delay replaces the earlier one's version.
     */
    void redelays(List<Operation> redelays) {
        Map<String, MessageVersion> lastById = new HashMap<>();
        for (Operation op : redelays.stream().sorted(Comparator.comparingLong(o -> o.start)).toList()) {
            findings.covered("re-delay from a delivery");
            MessageVersion parent = versions.get(op.parentBody);
            if (parent != null) {
                // a redriven life of it re-delays as its first did
                parent = parent.lifeAt(op.start);
            }
            if (parent == null) {
                findings.violation("re-delay of a body no stored version has " + op);
            } else {
                parent.redelayedBy = op;
            }
            MessageVersion stored = null;
            if (redelayStoresANewVersion(op)) {
                stored = store(op, op.id);
                stored.unsure = faults.unsure(op);
            } else {
                stored = maybeStored(op, op.id);
            }
            MessageVersion earlier = stored == null ? null : lastById.put(op.id, stored);
            if (earlier != null && earlier.redelayedBy == null && !earlier.finishedBefore(op.start)) {
                findings.covered("re-delay replaced by a later re-delay of a twice-delivered version");
                earlier.maybeRemoved = true;
            }
        }
    }

    private void schedule(Operation op, MessageVersion version, Map<String, MessageVersion> current, boolean sure) {
        boolean refused = op.error instanceof DuplicateMessageException;
        if (op.error != null && !(refused && op.kind == Kind.SCHEDULE_FAIL)) {
            if (refused) {
                findings.violation("schedule failed: " + op);
            } else {
                failedOnlyNearAFault(op);
            }
            failedUnsentIsNeverDelivered(op);
            maybeStored(op, op.id);
            if (version != null && op.kind == Kind.SCHEDULE_REPLACE) {
                version.maybeRemoved = true;
            }
            return;
        }
        if (op.kind == Kind.SCHEDULE_FAIL) {
            failRefusesOnlyAnUnfinishedMessage(op, version, refused, sure);
            if (refused) {
                // a repeat may have found the copy its first attempt stored
                unsureMayHaveStored(op, sure);
                return;
            }
        }
        if (Boolean.TRUE.equals(op.duplicate)) {
            keepReportsOnlyAnUnfinishedMessage(op, version, sure);
            unsureMayHaveStored(op, sure);
            return;
        }
        if (op.duplicate == null) {
            findings.violation("no Duplicate header " + op);
            return;
        }
        storedAtItsDelay(op, sure);
        storedBesideNoUnfinishedMessage(op, version, sure);
        if (version != null) {
            if (op.kind == Kind.SCHEDULE_REPLACE && !version.surelyFinishedBefore(op.start)) {
                version.supersededBy = op;
            }
            version.followedBy = op;
        }
        MessageVersion stored = store(op, op.id);
        stored.unsure = !sure;
        current.put(op.id, stored);
    }

    private MessageVersion store(Operation op, String id) {
        List<MessageVersion> itsLives = redrivenLives.of(
                id, op, deliveriesByBody.getOrDefault(op.body, List.of()),
                deadLettersByBody.getOrDefault(op.body, List.of()));
        MessageVersion version = itsLives.get(0);
        MessageVersion previous = versions.put(op.body, version);
        if (previous != null && !previous.maybe) {
            findings.violation("body reused " + op);
        }
        for (MessageVersion life : itsLives.subList(1, itsLives.size())) {
            lives.add(life);
            pendingLives.computeIfAbsent(id, k -> new PriorityQueue<>(Comparator.comparingLong(v -> v.created.start)))
                    .add(life);
        }
        return version;
    }

    /**
     * Makes each life of the op's id whose redrive started before the op ended the id's current version, checked
     * against the one it follows; whether such a redrive was still running when the op started: the op may then have
     * met the life or not, and the life is unsure.
     */
    private boolean meetRedrivenLives(Operation op, Map<String, MessageVersion> current) {
        Queue<MessageVersion> pending = pendingLives.get(op.id);
        boolean during = false;
        while (pending != null && !pending.isEmpty() && pending.peek().created.start < op.end) {
            MessageVersion life = pending.poll();
            MessageVersion previous = current.get(op.id);
            findings.covered("redriven life met by its id's thread, after "
                             + (previous == null ? "no version" : previous.body.equals(life.body) ? "its own"
                                     : "a newer version"));
            boolean whileRedriven = life.created.end >= op.start - CLOCK_SLACK_MS;
            if (whileRedriven && previous != null && !previous.body.equals(life.body) && mayHaveRemoved(op)) {
                // the op may have run first: a cancel that removed the version the queue held leaves the id free, and
                // the redrive then moves the dead letter back
                findings.covered("cancel on an id while a redrive moved it back");
                previous.maybeRemoved = true;
            }
            movedBackOnlyWhenTheQueueHeldNoOther(life, previous);
            current.put(op.id, life);
            if (whileRedriven) {
                findings.covered("operation on an id while a redrive moved it back");
                life.unsure = true;
                during = true;
            }
        }
        return during;
    }

    /**
     * Whether the op may have removed the version its id held: a cancel that answered true, or that a fault left
     * unsure.
     */
    private boolean mayHaveRemoved(Operation op) {
        return op.kind == Kind.CANCEL && (Boolean.TRUE.equals(op.answer) || faults.unsure(op));
    }

    /**
     * A redrive leaves a dead letter whose id the queue holds again: a life it moved back follows no version of the id
     * stored before the redrive and unfinished all through it.
     */
    private void movedBackOnlyWhenTheQueueHeldNoOther(MessageVersion life, MessageVersion previous) {
        Operation redrive = life.created;
        if (previous == null || previous.body.equals(life.body) || previous.created.end >= redrive.start - CLOCK_SLACK_MS
                || previous.finishedBefore(redrive.end)) {
            return;
        }
        boolean sure = !faults.unsure(redrive) && !previous.disturbed() && !previous.maybeRemoved
                && !previous.touchedBy(killed);
        findings.violationIfSure(sure, "a redrive moved a dead letter back while the queue held its id " + life
                                       + " held by " + previous);
    }

    /**
     * Whether the component sends the operation's call to Redis at most once, never again after it may have run: a
     * schedule under the application's id and a cancel (not a route's re-delay, which the rules judge by its delivery).
     */
    private static boolean sentOnce(Operation op) {
        return op.kind == Kind.SCHEDULE_KEEP || op.kind == Kind.SCHEDULE_REPLACE || op.kind == Kind.SCHEDULE_FAIL
                || op.kind == Kind.CANCEL;
    }

    /** An unsure schedule whose reply says it stored nothing may still have: a repeat found its own copy. */
    private void unsureMayHaveStored(Operation op, boolean sure) {
        if (!sure) {
            maybeStored(op, op.id);
        }
    }

    /**
     * A version an unsure schedule may have stored, known by its body once delivered (under the id delivered, for a
     * generated one whose reply never came); {@code null} when its body was never delivered.
     */
    private MessageVersion maybeStored(Operation op, String id) {
        List<Delivery> delivered = deliveriesByBody.get(op.body);
        findings.covered("unsure schedule, " + (delivered == null ? "not delivered" : "delivered"));
        if (delivered == null || versions.containsKey(op.body)) {
            return versions.get(op.body);
        }
        MessageVersion version = store(op, id != null ? id : delivered.get(0).id());
        version.maybe = true;
        version.unsure = true;
        return version;
    }

    /** An operation fails only near a Redis fault (and for none but a refused duplicate in a round without faults). */
    private void failedOnlyNearAFault(Operation op) {
        if (op.error != null && !faults.excuses(op)) {
            findings.violation(op.kind + " failed away from any Redis fault " + op);
        }
    }

    /** A schedule that failed saying it was not sent, so the message is not stored, is never delivered. */
    private void failedUnsentIsNeverDelivered(Operation op) {
        for (Throwable t = op.error; t != null; t = t.getCause()) {
            if (t.getMessage() != null && t.getMessage().contains(NOT_SENT)) {
                findings.covered("schedule failed unsent");
                if (deliveriesByBody.containsKey(op.body)) {
                    findings.violation("a schedule that failed as not sent, so not stored, was delivered " + op + " "
                                       + deliveriesByBody.get(op.body));
                }
                return;
            }
        }
    }

    /** {@code fail}: an existing unfinished message refuses the schedule; with none, it is stored. */
    private void failRefusesOnlyAnUnfinishedMessage(Operation op, MessageVersion version, boolean refused, boolean sure) {
        if (refused && (version == null || version.surelyFinishedBefore(op.start))) {
            findings.violationIfSure(sure,
                    "onDuplicate=fail refused an id with no message " + op + " previous " + version);
        }
        if (!refused && version != null && !version.finishedBefore(op.end)) {
            findings.violationIfSure(sure, "onDuplicate=fail stored while the previous version had not finished " + op
                                           + " previous " + version);
        }
    }

    /**
     * {@code Duplicate=true} only under {@code keep} and only for an existing unfinished message, reporting its due
     * time while it is scheduled.
     */
    private void keepReportsOnlyAnUnfinishedMessage(Operation op, MessageVersion version, boolean sure) {
        if (op.kind == Kind.SCHEDULE_REPLACE) {
            findings.violation("replace answered Duplicate=true " + op);
        }
        if (version == null) {
            findings.violationIfSure(sure, "Duplicate=true for an id with no stored version " + op);
            return;
        }
        if (version.surelyFinishedBefore(op.start)) {
            findings.violationIfSure(sure, "Duplicate=true though the previous version finished long before " + op
                                           + " previous " + version);
        }
        if (op.scheduledFor != null && version.startedBefore(op.end + CLOCK_SLACK_MS).isEmpty()
                && !version.rescheduleOverlaps(op.start) && !version.fuzzyDue
                && op.scheduledFor != version.dueAt(op.start)) {
            findings.violationIfSure(sure, "kept duplicate reports a due time other than the kept message's " + op
                                           + " previous " + version);
        }
    }

    /**
     * A stored schedule's {@code ScheduledFor} is the time of the call plus its delay; but for an unsure one, repeated
     * after it got no answer, that found its own copy of a generated id due: it answers {@code Duplicate=false} without
     * one.
     */
    private void storedAtItsDelay(Operation op, boolean sure) {
        if (op.scheduledFor == null && !sure) {
            findings.covered("stored by a repeat that found its own copy already due");
        } else if (!dueTimeOfTheCall(op)) {
            findings.violation("scheduledFor out of [start+delay, end+delay] " + op);
        }
    }

    /** {@code keep} and {@code fail} store nothing while the id's previous message is scheduled or unfinished. */
    private void storedBesideNoUnfinishedMessage(Operation op, MessageVersion version, boolean sure) {
        if (version == null || op.kind == Kind.SCHEDULE_REPLACE) {
            return;
        }
        if (version.surelyScheduled(op.start, op.end)) {
            findings.violationIfSure(sure, "keep stored over a scheduled message " + op + " previous " + version);
        } else if (!version.finishedBefore(op.end)) {
            findings.violationIfSure(sure, "keep stored a new version while the previous had not finished " + op
                                           + " previous " + version);
        }
    }

    /** A re-delay from the delivered exchange always stores a new version at its delay, unless a fault disturbed it. */
    private boolean redelayStoresANewVersion(Operation op) {
        if (op.error != null || !Boolean.FALSE.equals(op.duplicate) || !dueTimeOfTheCall(op)) {
            if (faults.unsure(op)) {
                failedOnlyNearAFault(op);
            } else {
                findings.violation("re-delay not stored as a new version " + op);
            }
            return false;
        }
        return true;
    }

    /**
     * Cancel: {@code true} removes a scheduled message, {@code false} for an unknown, due or finished one. An unsure
     * cancel may have removed the version though it answered {@code false}: a repeat finds nothing left.
     */
    private void cancel(Operation op, MessageVersion version, Map<String, MessageVersion> current, boolean sure) {
        if (op.error == null && op.scheduledFor != null) {
            findings.violation("cancel left a ScheduledFor " + op);
        }
        if (faults.unsure(op) && version != null) {
            version.maybeRemoved = true;
        }
        if (op.error != null) {
            failedOnlyNearAFault(op);
            return;
        }
        if (Boolean.TRUE.equals(op.answer)) {
            if (version == null) {
                findings.violationIfSure(sure, "cancel answered true for an id with no stored version " + op);
                return;
            }
            if (version.surelyFinishedBefore(op.start)) {
                findings.violationIfSure(sure, "cancel answered true for a finished message " + op + " " + version);
            }
            if (sure) {
                version.cancelledBy = op;
            } else {
                version.maybeRemoved = true;
            }
            current.remove(op.id);
        } else if (version != null && version.surelyScheduled(op.start, op.end)) {
            findings.violationIfSure(sure, "cancel answered false for a scheduled message " + op + " " + version);
        }
    }

    /**
     * Reschedule: {@code true} with the new due time for a scheduled message, {@code false} without one otherwise. An
     * unsure one may have moved the version whatever it answered.
     */
    private void reschedule(Operation op, MessageVersion version, boolean sure) {
        if (version != null) {
            version.earliestDue = Math.min(version.earliestDue, op.start + op.delay);
            // an unsure reschedule, or one of an id an unsure operation may have stored another version under (a
            // schedule that failed unanswered, which Redis ran after the fault), may have moved another version
            version.fuzzyDue |= !sure;
        }
        if (op.error != null) {
            failedOnlyNearAFault(op);
            return;
        }
        if (!Boolean.TRUE.equals(op.answer)) {
            if (op.scheduledFor != null) {
                findings.violation("reschedule answering false left a ScheduledFor " + op);
            }
            if (version != null && version.surelyScheduled(op.start, op.end)) {
                findings.violationIfSure(sure, "reschedule answered false for a scheduled message " + op + " " + version);
            }
            return;
        }
        if (version == null) {
            findings.violationIfSure(sure, "reschedule answered true for an id with no stored version " + op);
            return;
        }
        if (version.surelyFinishedBefore(op.start)) {
            findings.violationIfSure(sure, "reschedule answered true for a finished message " + op + " " + version);
        }
        if (dueTimeOfTheCall(op)) {
            version.reschedules.add(new MessageVersion.Reschedule(op.start, op.end, op.scheduledFor));
        } else {
            findings.violation("reschedule's scheduledFor out of [start+delay, end+delay] " + op);
        }
    }

    /** Peek shows a scheduled message as it is stored, and nothing for an id that never had one. */
    private void peek(Operation op, MessageVersion version, boolean sure) {
        if (op.error != null) {
            failedOnlyNearAFault(op);
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
            findings.violationIfSure(sure, "peek of a scheduled message does not show it " + op + " " + version);
        }
        if (version == null && op.state != null && !deadLettered(op.id)) {
            findings.violationIfSure(sure, "peek found a message of an id with none stored nor dead-lettered " + op);
        }
        if (op.state == null && peeked != null) {
            findings.violation("peek without a state returned a body " + op);
        }
    }

    /**
     * Whether the id was ever dead-lettered: a dead letter of it was got (under the id, or {@code <id>#<stream entry>}
     * while an earlier one waited), or a delivery of it failed for the last time.
     */
    private boolean deadLettered(String id) {
        return lastFailures.contains(id)
                || deadLetters.stream().anyMatch(d -> d.isOf(id));
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
