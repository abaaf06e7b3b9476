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
import java.util.Set;
import java.util.stream.Collectors;

import io.github.camelredisdelay.PartlyStoredBatchException;

import static io.github.camelredisdelay.faults.history.HistoryQueue.MAX_DELIVERIES;
import static io.github.camelredisdelay.faults.history.MessageVersion.CLOCK_SLACK_MS;
import static io.github.camelredisdelay.faults.history.MessageVersion.SURELY_MS;

/**
 * The rules on deliveries: every delivery and dead letter is of a stored version, and each version is delivered as the
 * contract says for how it ended: cancelled, replaced, re-delayed by its route, or left to run (to success or to the
 * dead-letter queue, as its body scripts). A version a killed consumer may have held is judged by what survives a
 * crash: its lost deliveries count, and it still ends. So is one a fault of Redis itself came near
 * ({@link MessageVersion#disturbed}): acknowledgements and leases may be lost, so it may be delivered again and its
 * counts and retry delays are not checked, but it is never delivered before its due time, nor lost unless an unsure
 * operation may have removed it, nor delivered after a cancel that surely answered true.
 * <p>
 * Each life a redrive gave a version ({@link RedrivenLives}) is checked as a version of its own, due at the redrive,
 * its counts from 1 afresh; a life that ends dead-lettered is either got by the dead-letter queue's consumer or moved
 * back as the next life, never both (but as {@link MessageVersion#consumedWhileRedriven} says), never lost.
 */
final class DeliveryRules {

    private final History history;
    private final KilledConsumer killed;
    private final Findings findings;

    DeliveryRules(History history, Findings findings) {
        this.history = history;
        this.killed = history.killed();
        this.findings = findings;
    }

    /** @param lives the lives redrives gave the versions, after their first */
    void check(Map<String, MessageVersion> versions, List<MessageVersion> lives) {
        everyDeliveryIsOfAStoredVersion(versions);
        everyDeliveryEnds();
        partlyStoredBatchesLoseNothing();
        for (MessageVersion version : versions.values()) {
            check(version);
        }
        lives.forEach(this::check);
    }

    private void check(MessageVersion v) {
        boolean killedTouched = v.touchedBy(killed);
        if (killedTouched) {
            findings.covered("version touched by the killed consumer JVM");
        }
        boolean disturbed = v.disturbed();
        if (disturbed) {
            findings.covered("version disturbed by a Redis fault");
        }
        boolean touched = killedTouched || disturbed;
        if (!disturbed) {
            deliveryCountsRunFromOne(v, killedTouched);
            scheduledAtIsTheScheduleCallsOnEveryDelivery(v);
        }
        List<Delivery> ds = v.deliveries;
        for (int i = 0; i < ds.size(); i++) {
            Delivery d = ds.get(i);
            notDeliveredBeforeItsScheduledFor(v, d);
            dueNoEarlierThanAnyScheduleGaveIt(v, d);
            if (disturbed) {
                countedWithinMaxDeliveries(d);
            } else if (i == 0 && d.count() == 1) {
                firstDeliveryAtTheDueTimeInEffect(v, d);
            } else if (i > 0 && !(touched && (byTheKilledConsumer(ds.get(i - 1)) || d.count() != ds.get(i - 1).count() + 1))) {
                redeliveryFollowsAFailureAfterItsRetryDelay(v, ds.get(i - 1), d);
            }
        }
        findings.covered((v.redriven() ? "redriven life, " : "") + "version "
                         + (v.cancelledBy != null ? "cancelled" : v.supersededBy != null ? "replaced unfinished"
                                 : v.redelayedBy != null ? "re-delayed"
                                 : v.script.failUntil() >= MAX_DELIVERIES ? "dead-lettered"
                                 : "fails " + v.script.failUntil() + " times")
                         + ", " + ds.size() + " deliveries, rescheduled "
                         + Math.min(v.reschedules.size(), 2) + "+");
        if (v.redelayedBy != null) {
            notDeliveredAfterItsRouteRedelayedIt(v, !disturbed && !history.faults().unsure(v.redelayedBy));
        } else if (v.cancelledBy != null) {
            notDeliveredAfterACancelAnsweredTrue(v);
        } else if (v.supersededBy != null) {
            boolean sure = !disturbed && !history.faults().unsure(v.supersededBy);
            replacedWhileScheduledIsNeverDelivered(v, sure);
            replacedWhileInFlightIsNotRetried(v, sure);
            replacedWhenReadyIsStillDelivered(v, sure);
        } else if (v.maybe || v.maybeRemoved) {
            findings.covered("version maybe stored, or maybe removed, by an unsure operation: its end not checked");
        } else if (touched) {
            touchedStillEnds(v, !disturbed);
        } else {
            endsAsItsBodyScripts(v);
        }
    }

    /** Every delivery and dead letter is of a stored version, under its id. */
    private void everyDeliveryIsOfAStoredVersion(Map<String, MessageVersion> versions) {
        for (Delivery d : history.deliveries()) {
            MessageVersion v = versions.get(d.body());
            if (v == null) {
                findings.violation("delivered a body no stored version has " + d);
            } else if (!v.id.equals(d.id())) {
                findings.violation("delivered under another id " + d + " " + v);
            }
        }
        for (DeadLetter dl : history.deadLetters()) {
            if (versions.get(dl.body()) == null) {
                findings.violation("dead letter of a body no stored version has " + dl);
            }
        }
    }

    /**
     * A batch that failed after some of its calls stored their messages names their ids
     * ({@link PartlyStoredBatchException}): each is delivered.
     */
    private void partlyStoredBatchesLoseNothing() {
        Set<String> delivered = history.deliveries().stream().map(Delivery::id).collect(Collectors.toSet());
        history.threadLogs().stream().flatMap(List::stream).filter(op -> op.inBatch)
                .map(op -> op.error).filter(PartlyStoredBatchException.class::isInstance).distinct()
                .map(PartlyStoredBatchException.class::cast).forEach(partly -> {
                    findings.covered("batch stored in part");
                    partly.getStoredIds().stream().filter(id -> !delivered.contains(id)).forEach(id -> findings
                            .violation("lost: id " + id + " a PartlyStoredBatchException names as stored was never"
                                       + " delivered: " + partly.getMessage()));
                });
    }

    /** A live consumer finishes every delivery it starts. */
    private void everyDeliveryEnds() {
        history.unfinished().forEach(d -> findings.violation("a live consumer never finished a delivery " + d));
    }

    /**
     * Delivery counts run 1, 2, ...; where a killed consumer may have counted deliveries nobody noted, they never go
     * down.
     */
    private void deliveryCountsRunFromOne(MessageVersion v, boolean touched) {
        List<Delivery> ds = v.deliveries;
        for (int i = 0; i < ds.size(); i++) {
            if (touched) {
                if (i > 0 && ds.get(i).count() < ds.get(i - 1).count() && !byTheKilledConsumer(ds.get(i - 1))) {
                    findings.violation("delivery count went down " + v);
                }
            } else if (ds.get(i).count() != i + 1) {
                findings.violation("delivery counts not 1..n " + v);
                return;
            }
        }
    }

    /** No delivery is due before the earliest due time a schedule or reschedule of its version may have given it. */
    private void dueNoEarlierThanAnyScheduleGaveIt(MessageVersion v, Delivery d) {
        if (d.scheduledFor() != null && d.scheduledFor() < v.earliestDue - CLOCK_SLACK_MS) {
            findings.violation("ScheduledFor " + d.scheduledFor() + " before any due time a schedule gave ("
                               + v.earliestDue + ") " + d + " " + v);
        }
    }

    /**
     * Every delivery of a version carries the same {@code ScheduledAt}, retries and take-overs alike (the idempotency
     * key of the docs), a time within the call that stored the version.
     */
    private void scheduledAtIsTheScheduleCallsOnEveryDelivery(MessageVersion v) {
        for (Delivery d : v.deliveries) {
            if (d.scheduledAt() == null) {
                findings.violation("delivery without ScheduledAt " + d);
            } else if (d.scheduledAt() < v.created.start - CLOCK_SLACK_MS || d.scheduledAt() > v.created.end + CLOCK_SLACK_MS) {
                findings.violation("ScheduledAt " + d.scheduledAt() + " outside the call that stored its version " + d + " "
                                   + v);
            }
        }
    }

    /** Counts run from 1 to {@code maxDeliveries}, a first delivery without a last error, whatever happened. */
    private void countedWithinMaxDeliveries(Delivery d) {
        if (d.count() < 1 || d.count() > MAX_DELIVERIES) {
            findings.violation("delivery count out of 1.." + MAX_DELIVERIES + " " + d);
        }
        if (d.count() == 1 && d.lastError() != null) {
            findings.violation("first delivery carries a LastError " + d);
        }
    }

    /** No delivery before its {@code ScheduledFor}. */
    private void notDeliveredBeforeItsScheduledFor(MessageVersion v, Delivery d) {
        if (d.scheduledFor() == null) {
            findings.violation("delivery without ScheduledFor " + d);
        } else if (d.start() < d.scheduledFor() - CLOCK_SLACK_MS) {
            findings.violation("delivered " + (d.scheduledFor() - d.start()) + " ms before its ScheduledFor " + d + " " + v);
        }
    }

    /**
     * The first delivery comes at or after the due time in effect, carries it, and carries no last error; where no
     * reply told the version's own due time (a batch element) it carries one that is not before it.
     */
    private void firstDeliveryAtTheDueTimeInEffect(MessageVersion v, Delivery d) {
        if (d.lastError() != null) {
            findings.violation("first delivery carries a LastError " + d);
        }
        if (v.rescheduleOverlaps(d.start()) || v.fuzzyDue) {
            return;
        }
        long due = v.dueAt(d.start());
        if (d.scheduledFor() != null && d.scheduledFor() != due) {
            findings.violation("first delivery's ScheduledFor is not the due time in effect (" + due + ") " + d + " " + v);
        }
        if (d.start() < due - CLOCK_SLACK_MS) {
            findings.violation("first delivery before the due time in effect " + d + " " + v);
        }
    }

    /** A redelivery follows a failed delivery, after the retry delay, carrying that failure as its last error. */
    private void redeliveryFollowsAFailureAfterItsRetryDelay(MessageVersion v, Delivery previous, Delivery d) {
        if (!previous.failed()) {
            findings.violation("delivered again after a successful delivery " + d + " " + v);
        }
        boolean rescheduledBetween = v.reschedules.stream()
                .anyMatch(r -> r.end() > previous.start() && r.start() < d.start());
        if (d.scheduledFor() != null && !rescheduledBetween
                && d.scheduledFor() < previous.end() + HistoryQueue.retryDelay(previous.count()) - CLOCK_SLACK_MS) {
            findings.violation("redelivery due before the retry delay " + d + " after " + previous);
        }
        if (d.lastError() == null || !d.lastError().contains("planned failure " + previous.count())) {
            findings.violation("redelivery without the last error " + d);
        }
    }

    /** After a re-delay from its delivery, the delivered version is neither delivered again nor dead-lettered. */
    private void notDeliveredAfterItsRouteRedelayedIt(MessageVersion v, boolean sure) {
        notDeliveredAfter(v, v.redelayedBy, "the route re-delayed it", sure);
    }

    /** A cancel that answered true removed the message: no delivery starts after it, no dead letter. */
    private void notDeliveredAfterACancelAnsweredTrue(MessageVersion v) {
        notDeliveredAfter(v, v.cancelledBy, "a cancel answered true", true);
    }

    private void notDeliveredAfter(MessageVersion v, Operation end, String what, boolean sure) {
        v.deliveries.stream().filter(d -> d.start() > end.end).forEach(
                d -> findings.violationIfSure(sure, "delivered after " + what + " " + d + " " + v + " by " + end));
        if (v.deadLetterings() > 0) {
            findings.violationIfSure(sure, "dead-lettered after " + what + " " + v + " by " + end);
        }
    }

    /** {@code replace} of a scheduled message replaces it: the old version is never delivered. */
    private void replacedWhileScheduledIsNeverDelivered(MessageVersion v, boolean sure) {
        Operation r = v.supersededBy;
        if (v.surelyScheduled(r.start, r.end) && !v.deliveries.isEmpty()) {
            findings.violationIfSure(sure, "a version replaced while scheduled was delivered " + v + " replaced by " + r);
        }
    }

    /**
     * {@code replace} of a message in flight: the old version's delivery ends it, neither retried nor dead-lettered
     * when it fails (a killed consumer's copy may leave one dead letter, or one more delivery, behind).
     */
    private void replacedWhileInFlightIsNotRetried(MessageVersion v, boolean sure) {
        Operation r = v.supersededBy;
        if (v.deliveries.stream().filter(d -> d.start() > r.end).count() > 1) {
            findings.violationIfSure(sure,
                    "a replaced version was delivered more than once after the replace " + v + " replaced by "
                                           + r);
        }
        v.deliveries.stream().filter(d -> d.start() < r.start && d.end() > r.end).reduce((x, y) -> y)
                .ifPresent(inFlight -> {
                    findings.covered("replace of a delivery in flight, " + (inFlight.failed() ? "failed" : "succeeded"));
                    if (v.deliveries.stream().anyMatch(d -> d.start() > inFlight.end())) {
                        findings.violationIfSure(sure,
                                "a replaced version was delivered again after its delivery in flight during"
                                                       + " the replace " + v + " replaced by " + r);
                    }
                });
        if (v.deadLetterings() > 1) {
            findings.violationIfSure(sure, "dead-lettered more than once " + v);
        }
    }

    /**
     * {@code replace} of a ready message: the old version is still delivered, also when a consumer that fetched it
     * hands it back unrouted; only when the consumer that held it died before the replace's lease take-over is it
     * dropped (the component page's table of {@code onDuplicate}; design notes §17).
     */
    private void replacedWhenReadyIsStillDelivered(MessageVersion v, boolean sure) {
        Operation r = v.supersededBy;
        if (!v.deliveries.isEmpty() || !v.reschedules.isEmpty() || v.fuzzyDue
                || v.dueAt(r.start) >= r.start - SURELY_MS) {
            return;
        }
        if (killed.held(v.body) && r.start < killed.takenOverAt(v.body)) {
            findings.covered("replaced version dropped at the take-over of the killed consumer's lease");
            return;
        }
        // a lease a fault cut short is taken over as a killed consumer's is
        boolean leaseMayHaveExpired = history.faults().overlaps(v.dueAt(r.start), r.start, FaultWindows.AFTERMATH_MS);
        findings.violationIfSure(sure && !leaseMayHaveExpired,
                "a version due long before it was replaced was never delivered " + v + " replaced by " + r
                                                               + (killed.held(v.body)
                                                                       ? "; the killed consumer held it, its lease was taken over at "
                                                                         + killed.takenOverAt(v.body)
                                                                       : ""));
    }

    /**
     * A message the killed consumer held is taken over when its lease expires, and one a Redis fault came near is
     * delivered again if its acknowledgement was lost: either still succeeds or is dead-lettered (got by the
     * dead-letter queue's consumer or redriven), never lost (at most twice: a dead-lettering whose acknowledgement the
     * kill cut off is repeated; near a fault the count is not checked, {@code sure} is false).
     */
    private void touchedStillEnds(MessageVersion v, boolean sure) {
        if (v.deliveries.stream().allMatch(Delivery::failed) && v.deadLetterings() == 0) {
            findings.violation("lost: neither delivered successfully nor dead-lettered " + v);
        }
        if (v.deadLetterings() > 2 || v.deadLetters.stream().anyMatch(dl -> !fromThisQueue(v, dl))) {
            findings.violationIfSure(sure, "dead letters wrong " + v);
        }
    }

    /**
     * A message left to run is delivered until a delivery succeeds, or {@code maxDeliveries} times and then
     * dead-lettered once, got by the dead-letter queue's consumer with its id, original queue and last error, or moved
     * back by a redrive.
     */
    private void endsAsItsBodyScripts(MessageVersion v) {
        boolean succeeded = v.deliveries.stream().anyMatch(d -> !d.failed());
        if (v.script.failUntil() >= MAX_DELIVERIES) {
            if (v.deliveries.size() != MAX_DELIVERIES || succeeded) {
                findings.violation("expected " + MAX_DELIVERIES + " failed deliveries then a dead letter " + v);
            }
            if (v.deadLetterings() != 1) {
                findings.violation("expected exactly one dead letter, got " + v.deadLetters.size() + " and "
                                   + (v.redrivenAs == null ? "no" : "a") + " redrive " + v);
            }
            v.deadLetters.stream().filter(dl -> !fromThisQueue(v, dl) || dl.lastError() == null
                    || !dl.lastError().contains("planned failure " + MAX_DELIVERIES) || dl.count() != 1)
                    .forEach(dl -> findings.violation("dead letter headers wrong " + dl + " " + v));
        } else {
            int expected = v.script.failUntil() + 1;
            if (v.deliveries.size() != expected || !succeeded) {
                findings.violation("expected " + expected + " deliveries ending in success " + v);
            }
            if (v.deadLetterings() > 0) {
                findings.violation("dead-lettered though it succeeded " + v);
            }
        }
    }

    /**
     * Whether a dead letter names the version's queue and id ({@link DeadLetter#isOf}).
     */
    private boolean fromThisQueue(MessageVersion v, DeadLetter dl) {
        return dl.isOf(v.id) && history.queue().name().equals(dl.originalQueue());
    }

    private boolean byTheKilledConsumer(Delivery d) {
        return d.consumer().equals(killed.consumer());
    }
}
