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

/**
 * One stored version of an id: a schedule or re-delay that answered {@code Duplicate=false}, with what happened to it
 * afterwards (reschedules, the cancel, replace or re-delay that ended it) and its deliveries and dead letters; or one
 * life of it after a redrive moved its dead letter back ({@link RedrivenLives}), which {@code created} then is. The
 * times are epoch ms of this host, the clock Redis (on the same host) stamps due times with.
 * <p>
 * Near a fault of Redis itself a reply may not tell what happened: such a version may be only {@link #maybe} stored,
 * {@link #unsure}, {@link #maybeRemoved} or of a {@link #fuzzyDue} due time, and its rules let more pass.
 */
final class MessageVersion {

    /** Slack on comparisons of times taken by two processes. */
    static final long CLOCK_SLACK_MS = 25;
    /** A margin after which a version surely went from one state to the next (transferred, acknowledged). */
    static final long SURELY_MS = 2000;

    /** A reschedule that answered true: sent during [start, end], to this due time. */
    record Reschedule(long start, long end, long due) {
    }

    final String id;
    final String body;
    final ScriptedBody script;
    final Operation created;
    final List<Reschedule> reschedules = new ArrayList<>();
    Operation cancelledBy;
    /** The replace that stored a newer version while this one was not finished. */
    Operation supersededBy;
    /** The route's re-delay from one of its deliveries. */
    Operation redelayedBy;
    /** The schedule that stored the next version of the id. */
    Operation followedBy;
    /** Its deliveries, by start. */
    final List<Delivery> deliveries;
    /** The dead letters the dead-letter queue's consumer got of it. */
    final List<DeadLetter> deadLetters;
    /** The life before, whose dead letter a redrive moved back as this one; {@code null} for a version's first. */
    MessageVersion redrivenFrom;
    /** The life after, as which a redrive moved its dead letter back. */
    MessageVersion redrivenAs;
    /** An unsure schedule may have stored it: it is known by its delivered body. */
    boolean maybe;
    /** Stored by an unsure operation, or while the id's state was unsure. */
    boolean unsure;
    /** An unsure cancel or replace, or a later re-delay, may have removed it. */
    boolean maybeRemoved;
    /** An unsure reschedule may have moved it, or no reply told its own due time. */
    boolean fuzzyDue;
    /** The earliest due time any schedule or reschedule of it may have given it. */
    long earliestDue;
    private final FaultWindows faults;

    /** @param created the schedule that stored it, or the redrive that moved its life before back */
    MessageVersion(String id, String body, Operation created, List<Delivery> deliveries, List<DeadLetter> deadLetters,
                   FaultWindows faults) {
        this.id = id;
        this.body = body;
        this.script = ScriptedBody.parse(body);
        this.created = created;
        this.deliveries = deliveries;
        this.deadLetters = deadLetters;
        this.faults = faults;
        this.earliestDue = created.start + created.delay;
        // a batch's ScheduledFor is the due time of its last call to a shard: each call reads Redis' clock
        this.fuzzyDue = created.scheduledFor == null || created.inBatch;
    }

    /** The due time in effect for a first delivery that starts at {@code at}. */
    long dueAt(long at) {
        long due = created.scheduledFor != null ? created.scheduledFor : created.start + created.delay;
        for (Reschedule r : reschedules) {
            if (r.end() < at) {
                due = r.due();
            }
        }
        return due;
    }

    boolean rescheduleOverlaps(long at) {
        return reschedules.stream().anyMatch(r -> r.start() <= at && at <= r.end());
    }

    List<Delivery> startedBefore(long at) {
        return deliveries.stream().filter(d -> d.start() < at).toList();
    }

    /** Whether it was certainly waiting for its first due time during [start, end]. */
    boolean surelyScheduled(long start, long end) {
        return !fuzzyDue && startedBefore(end + CLOCK_SLACK_MS).isEmpty() && end < dueAt(start) - CLOCK_SLACK_MS
                && !rescheduleOverlaps(start);
    }

    /** Whether its last delivery (a success, or the last failed one) started before {@code at}. */
    boolean finishedBefore(long at) {
        return deliveries.stream().anyMatch(d -> d.start() < at && ends(d));
    }

    /**
     * Whether it finished (acknowledged or dead-lettered) a long while before {@code at}, by a delivery no Redis fault
     * came near (its acknowledgement may not have reached Redis).
     */
    boolean surelyFinishedBefore(long at) {
        return deliveries.stream().anyMatch(d -> d.end() < at - SURELY_MS && ends(d)
                && !faults.overlaps(d.start(), d.end(), FaultWindows.AFTERMATH_MS));
    }

    private static boolean ends(Delivery d) {
        return !d.failed() || d.count() >= HistoryQueue.MAX_DELIVERIES;
    }

    /** Whether a redrive moved it back: a life after the version's first. */
    boolean redriven() {
        return redrivenFrom != null;
    }

    /** The life, this one or one a redrive gave it later, that was being delivered at {@code at}. */
    MessageVersion lifeAt(long at) {
        MessageVersion life = this;
        while (life.redrivenAs != null && life.redrivenAs.deliveries.get(0).start() <= at) {
            life = life.redrivenAs;
        }
        return life;
    }

    /**
     * Whether the dead-letter queue's consumer got this dead letter of it while the redrive that moved it back as its
     * next life ran: fetched between the redrive's claim and its removal, it is in both queues (the component page says
     * so), and the redrive does not count it.
     */
    boolean consumedWhileRedriven(DeadLetter dl) {
        return redrivenAs != null && dl.time() >= redrivenAs.created.start - CLOCK_SLACK_MS
                && dl.time() <= redrivenAs.created.end + CLOCK_SLACK_MS;
    }

    /** How often it was dead-lettered: a dead letter the dead-letter queue's consumer got, or a redrive moved back. */
    long deadLetterings() {
        return deadLetters.stream().filter(dl -> !consumedWhileRedriven(dl)).count() + (redrivenAs == null ? 0 : 1);
    }

    /** Whether a Redis fault came near its schedule or any of its deliveries, or its replies were unsure. */
    boolean disturbed() {
        return unsure || maybe || faults.overlaps(created.start, created.end, FaultWindows.AFTERMATH_MS)
                || deliveries.stream().anyMatch(d -> faults.overlaps(d.start(), d.end(), FaultWindows.AFTERMATH_MS));
    }

    /** Whether a consumer killed in the round may have counted deliveries of it that were never noted. */
    boolean touchedBy(KilledConsumer killed) {
        if (killed == KilledConsumer.NONE) {
            return false;
        }
        for (int i = 0; i < deliveries.size(); i++) {
            if (deliveries.get(i).count() != i + 1 || deliveries.get(i).consumer().equals(killed.consumer())) {
                return true;
            }
        }
        return killed.held(body);
    }

    @Override
    public String toString() {
        return "version[" + (redriven() ? "redriven life of " + body + " by " : "") + created + ", reschedules="
               + reschedules + ", deliveries=" + deliveries + ", dead letters=" + deadLetters + ", next version: "
               + followedBy + "]";
    }
}
