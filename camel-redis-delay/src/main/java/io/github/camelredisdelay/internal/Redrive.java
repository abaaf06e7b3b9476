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
package io.github.camelredisdelay.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Predicate;

import io.github.camelredisdelay.OnDuplicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves dead letters back to the queue they came from (redrive), shard by shard, those present when it starts only: one
 * that fails again while the redrive runs is dead-lettered anew and left for the next one. Like {@link DeadLetters} it
 * writes first and removes second, each a script call of its own (the two queues live in different cluster slots): a
 * crash in between leaves a duplicate, never a loss. A moved message keeps its id (a later dead letter of an id, stored
 * as {@code <id>#<stream entry>} or {@code <id>#<stream entry>.<n>}, goes back under the id), body and headers, loses
 * the dead-letter headers and starts with a fresh delivery count. Dead letters a consumer of the dead-letter queue
 * failed and scheduled again (its {@code retrySchedule}) are made ready, those of the queue only ({@link #some}), and
 * moved as the others; those of them it made ready and does not move go back to the due set for their own due time
 * ({@code redrive-return.lua}), also when the redrive fails part-way ({@link MadeReady}). Dead letters such a consumer
 * has fetched are left alone, unless it let their lease expire (it died or hangs), and so is one whose id the queue
 * holds again (a newer message with that id, or another dead letter of the id just moved), one another queue
 * dead-lettered (a dead-letter queue that several queues share), or one that cannot be read (with a warning). One such
 * a consumer fetches between the claim and the removal is in both queues afterwards, with a warning, and is not counted
 * as moved. Each dead letter is claimed before it is copied ({@code redrive-claim.lua}), so that of redrives running at
 * once only one moves it; redrives from one dead-letter queue, which make dead letters ready and put back on schedule
 * those they leave, take turns ({@link RedriveTurn}).
 */
public final class Redrive {

    private static final Logger LOG = LoggerFactory.getLogger(Redrive.class);

    /** The most dead letters one listing call returns. */
    static final int PAGE = 100;
    /**
     * The most scheduled dead letters a redrive with a limit keeps from one reading of a shard beyond what its limit
     * still asks for.
     */
    private static final long MOST_KEPT = 10_000;
    /** How long a redrive's claim on a dead letter lasts: after that, one that died after claiming leaves it free. */
    private static final long CLAIM_MS = 60_000;

    private final ShardedQueue deadLetterQueue;
    private final ShardedQueue target;
    /** Whether what runs the redrive stopped: a wait for its turn then ends ({@link RedriveTurn#take}). */
    private final BooleanSupplier stopped;
    /** Names this redrive's claims and its turn. */
    private final String token = MessageIds.next();
    /** The scheduled dead letters this redrive made ready: those it did not move go back if it fails. */
    private final MadeReady madeReady = new MadeReady();

    /** @param stopped whether what runs the redrive (its endpoint, its CamelContext) stopped */
    public Redrive(ShardedQueue deadLetterQueue, ShardedQueue target, BooleanSupplier stopped) {
        this.deadLetterQueue = deadLetterQueue;
        this.target = target;
        this.stopped = stopped;
    }

    /**
     * Moves at most {@code limit} of the dead letters present when it starts, oldest first on each shard; dead letters
     * added meanwhile (those it moved that failed again included) are left for the next redrive. Those a consumer of
     * the dead-letter queue failed and scheduled again come after the ready ones, this queue's only: a redrive of all
     * makes every one ready before it lists any, a redrive with a limit makes them ready as it goes, earliest due
     * first, as many as the limit still asks for ({@link #moveScheduled}).
     *
     * @return the number moved
     */
    public long some(long limit, DueTime due) {
        try (RedriveTurn turn = RedriveTurn.take(deadLetterQueue, token, target.name(), stopped)) {
            return madeReady.putBackOnFailure(() -> some(limit, due, turn));
        }
    }

    private long some(long limit, DueTime due, RedriveTurn turn) {
        boolean all = limit == Long.MAX_VALUE;
        // every shard's listing ends where its stream ends now, before anything moves: a dead letter moved back that
        // fails again before it is removed here is dead-lettered as <id>#<stream entry>, on the shard that id picks,
        // which may be one not listed yet
        Map<QueueShard, ReadyListing> listings = new LinkedHashMap<>();
        // with a limit, per shard, the time on its Redis' clock when the redrive started: scheduled dead letters written
        // later (those it moved that failed again, and were scheduled again by a consumer of the dead-letter queue) stay
        Map<QueueShard, Long> startedAt = new HashMap<>();
        for (QueueShard shard : deadLetterQueue.all()) {
            if (all) {
                makeOwnScheduledReady(shard, turn);
            } else {
                startedAt.put(shard, shard.redisTimeMillis());
            }
            ReadyListing listing = shard.inspection().readyListing("");
            listing.fixLast();
            listings.put(shard, listing);
        }
        Tally tally = new Tally();
        for (Map.Entry<QueueShard, ReadyListing> shardListing : listings.entrySet()) {
            QueueShard shard = shardListing.getKey();
            ReadyListing listing = shardListing.getValue();
            List<ReadyEntry> page;
            do {
                turn.keep();
                // whole pages however few the limit still asks for: other queues' dead letters (a dead-letter queue that
                // several share) may fill them
                page = listing.next(PAGE);
                tally.add(move(shard, page, id -> true, due, limit - tally.moved));
            } while (page.size() == PAGE && tally.moved < limit);
            if (tally.moved >= limit) {
                break;
            }
        }
        for (QueueShard shard : deadLetterQueue.all()) {
            if (all || tally.moved >= limit) {
                break;
            }
            moveScheduled(shard, startedAt.get(shard), limit, due, tally, turn);
        }
        reportOtherQueues(tally.ofOtherQueues);
        return tally.moved;
    }

    /**
     * Makes this queue's dead letters of a shard that a consumer of the dead-letter queue failed and scheduled again
     * ready, a page of the shard at a time.
     */
    private void makeOwnScheduledReady(QueueShard shard, RedriveTurn turn) {
        forEachOwnScheduledPage(shard, turn, page -> madeReady.add(shard, shard.inspection()
                .makeReadyForRedrive(page.stream().map(ShardInspection.StoredMessage::version).toList())));
    }

    /**
     * Hands each page of this queue's dead letters of a shard that a consumer of the dead-letter queue failed and
     * scheduled again to {@code action}: not another queue's (a dead-letter queue that several share), which, made
     * ready, would reach a consumer of the dead-letter queue before its retry. One that cannot be read is among them,
     * so that the redrive names it when it leaves it. A page may list a dead letter a page before listed too.
     */
    private void forEachOwnScheduledPage(
            QueueShard shard, RedriveTurn turn, Consumer<List<ShardInspection.StoredMessage>> action) {
        String cursor = "0";
        do {
            turn.keep();
            ShardInspection.ScheduledPage page = shard.inspection().scheduledPage(cursor);
            action.accept(page.scheduled().stream()
                    .filter(deadLetter -> DeadLetters.cameFrom(StoredRecord.envelope(deadLetter.record()), target.name()))
                    .toList());
            cursor = page.cursor();
        } while (!"0".equals(cursor));
    }

    /**
     * Moves this queue's dead letters of a shard that a consumer of the dead-letter queue failed and scheduled again,
     * earliest due first, as many as the limit still asks for: made ready a page at a time, and moved; those that do
     * not move (the queue holds their id again) go back to the due set at once, and the next ones, due after the last
     * tried, are read in their place (one more reading of the shard) until the limit is reached or none is left. Dead
     * letters written after {@code startedAt} (epoch ms, the shard's Redis clock) are not moved: they were not there
     * when the redrive started.
     */
    private void moveScheduled(QueueShard shard, long startedAt, long limit, DueTime due, Tally tally, RedriveTurn turn) {
        Scheduled lastTried = null;
        long wanted = limit - tally.moved;
        List<Scheduled> earliest;
        do {
            earliest = earliestOwnScheduled(shard, startedAt, wanted, lastTried, turn);
            Iterator<Scheduled> next = earliest.iterator();
            while (next.hasNext() && tally.moved < limit) {
                turn.keep();
                List<ShardInspection.MessageVersion> page = new ArrayList<>();
                while (next.hasNext() && page.size() < Math.min(PAGE, limit - tally.moved)) {
                    lastTried = next.next();
                    page.add(lastTried.version());
                }
                tally.add(move(shard, madeReady.add(shard, shard.inspection().makeReadyForRedrive(page)), id -> true, due,
                        Long.MAX_VALUE));
            }
            // each reading scans the shard: one after many did not move reads twice as many, so that a small limit
            // behind many that cannot move scans it a few times, not once per dead letter
            if (earliest.size() < wanted) {
                break;
            }
            wanted = Math.max(limit - tally.moved, Math.min(2 * wanted, MOST_KEPT));
        } while (tally.moved < limit);
    }

    /**
     * The {@code wanted} earliest due of this queue's dead letters of a shard that a consumer of the dead-letter queue
     * failed and scheduled again by {@code startedAt}, due after {@code after} (all when {@code null}), earliest first.
     */
    private List<Scheduled> earliestOwnScheduled(
            QueueShard shard, long startedAt, long wanted, Scheduled after, RedriveTurn turn) {
        PriorityQueue<Scheduled> latestFirst = new PriorityQueue<>(Scheduled.EARLIEST_FIRST.reversed());
        Set<String> kept = new HashSet<>();
        forEachOwnScheduledPage(shard, turn, page -> {
            for (ShardInspection.StoredMessage deadLetter : page) {
                Scheduled scheduled = new Scheduled(deadLetter.version(), StoredRecord.dueAt(deadLetter.record()));
                if (StoredRecord.scheduledAt(deadLetter.record()) <= startedAt
                        && (after == null || Scheduled.EARLIEST_FIRST.compare(scheduled, after) > 0)
                        && kept.add(deadLetter.id())) {
                    latestFirst.add(scheduled);
                    if (latestFirst.size() > wanted) {
                        kept.remove(latestFirst.poll().version().id());
                    }
                }
            }
        });
        return latestFirst.stream().sorted(Scheduled.EARLIEST_FIRST).toList();
    }

    /** A scheduled dead letter and its due time. */
    private record Scheduled(ShardInspection.MessageVersion version, long dueAt) {

        /** Earliest due first, then by id. */
        static final Comparator<Scheduled> EARLIEST_FIRST = Comparator.comparingLong(Scheduled::dueAt)
                .thenComparing(scheduled -> scheduled.version().id());
    }

    /** How many dead letters a redrive moved, and how many it left as other queues'. */
    private static final class Tally {
        private long moved;
        private long ofOtherQueues;

        void add(PageOutcome outcome) {
            moved += outcome.moved();
            ofOtherQueues += outcome.ofOtherQueues();
        }
    }

    private void reportOtherQueues(long ofOtherQueues) {
        if (ofOtherQueues > 0) {
            LOG.info("Redrive into queue {} left {} dead letters of other queues in {}: each queue's redrive takes back its"
                     + " own",
                    target.name(), ofOtherQueues, deadLetterQueue.name());
        }
    }

    /**
     * Moves one dead letter of this id, the first that can move, oldest first on each shard and the id's own shard
     * first: the one stored under the id, or a later one stored as {@code <id>#<stream entry>} (see
     * {@link DeadLetters}), which may be on any shard; asked by that stored id, just that one. Either goes back under
     * the message's own id. When none is ready to move, those a consumer of the dead-letter queue failed and scheduled
     * again are made ready, and the search runs once more.
     *
     * @return {@code true} when one was moved
     */
    public boolean one(String messageId, DueTime due) {
        try (RedriveTurn turn = RedriveTurn.take(deadLetterQueue, token, target.name(), stopped)) {
            return madeReady.putBackOnFailure(() -> {
                PageOutcome found = search(messageId, due, false, turn);
                if (found.moved() == 0 && makeOwnScheduledOfIdReady(messageId, turn)) {
                    found = search(messageId, due, true, turn);
                }
                reportOtherQueues(found.ofOtherQueues());
                return found.moved() > 0;
            });
        }
    }

    /**
     * Looks for a ready dead letter of this id ({@link #one}) and moves it; stops at the first that moves, unless dead
     * letters were made ready for the search ({@code afterMakingReady}): the others then go back to the due set, as
     * those that do not move.
     */
    private PageOutcome search(String messageId, DueTime due, boolean afterMakingReady, RedriveTurn turn) {
        long moved = 0;
        long ofOtherQueues = 0;
        for (QueueShard shard : deadLetterQueue.allFrom(messageId)) {
            ReadyListing listing = shard.inspection().readyListing(messageId);
            // a page of the stream per call, each after the last: the search ends with the listing
            for (List<ReadyEntry> found = listing.next(1); !found.isEmpty(); found = listing.next(1)) {
                turn.keep();
                ReadyEntry entry = found.get(0);
                if (entry.messageId().isEmpty()) {
                    continue;
                }
                // asked by the message's id, or by the one a later dead letter of it is stored under; none once one moved
                boolean looking = moved == 0;
                PageOutcome outcome = move(shard, found,
                        id -> looking && (id.equals(messageId) || entry.messageId().equals(messageId)), due,
                        Long.MAX_VALUE);
                moved += outcome.moved();
                ofOtherQueues += looking ? outcome.ofOtherQueues() : 0;
                if (moved > 0 && !afterMakingReady) {
                    return new PageOutcome(moved, ofOtherQueues, List.of());
                }
            }
        }
        return new PageOutcome(moved, ofOtherQueues, List.of());
    }

    /**
     * Makes the dead letters of this id that a consumer of the dead-letter queue failed and scheduled again ready now:
     * the one under the id, on its shard, and later ones under {@code <id>#...} on any shard; those of this queue only.
     *
     * @return whether it made any ready
     */
    private boolean makeOwnScheduledOfIdReady(String messageId, RedriveTurn turn) {
        boolean made = false;
        for (QueueShard shard : deadLetterQueue.all()) {
            turn.keep();
            List<String> ids = new ArrayList<>(shard.inspection().suffixedIds(messageId));
            if (shard == deadLetterQueue.forMessage(messageId)) {
                ids.add(0, messageId);
            }
            List<ShardInspection.MessageVersion> own = new ArrayList<>();
            for (String id : ids) {
                InspectedMessage scheduled = shard.inspection().peek(id);
                // not another queue's (a dead-letter queue that several share): made ready, it would reach a consumer
                // of the dead-letter queue before its retry, ahead of its return to the due set
                if (scheduled != null && DeadLetters.isDeadLetterOf(target.name(), messageId, id, scheduled.envelope())) {
                    own.add(new ShardInspection.MessageVersion(id, scheduled.version()));
                }
            }
            made |= !madeReady.add(shard, shard.inspection().makeReadyForRedrive(own)).isEmpty();
        }
        return made;
    }

    /**
     * What {@link #moveLeaving} did with a page of dead letters.
     *
     * @param notMoved those of the page that did not move and have a record's head, the unreadable ones among them
     */
    private record PageOutcome(long moved, long ofOtherQueues, List<ReadyEntry> notMoved) {
    }

    /** A dead letter to move back: its entry, the message's own id and what is stored of it. */
    private record Candidate(ReadyEntry entry, String id, Envelope stored) {
    }

    /**
     * {@link #moveLeaving Moves} at most {@code most} dead letters of a page; those not moved that the redrive made
     * ready before their due time go back to the due set, for the due time their record holds.
     */
    private PageOutcome move(QueueShard source, List<ReadyEntry> page, Predicate<String> wanted, DueTime due, long most) {
        PageOutcome outcome = moveLeaving(source, page, wanted, due, most);
        source.inspection().returnToDueSet(outcome.notMoved());
        return outcome;
    }

    /**
     * Moves at most {@code most} of the dead letters of a page that are this queue's and {@code wanted}, in page order:
     * they are claimed first, as many in one call as may still move, and those another redrive running at once holds
     * are left to it; those after the {@code most}-th moved are left unclaimed.
     *
     * @param wanted whether the message's own id is one to move
     */
    private PageOutcome moveLeaving(
            QueueShard source, List<ReadyEntry> page, Predicate<String> wanted, DueTime due, long most) {
        Map<String, Candidate> candidates = new LinkedHashMap<>();
        List<ReadyEntry> withHead = new ArrayList<>(page.size());
        long ofOtherQueues = 0;
        for (ReadyEntry entry : page) {
            if (StoredRecord.hasHead(entry.record())) {
                // one made ready that cannot be read goes back to the due set too, for its retry
                withHead.add(entry);
            }
            Envelope stored;
            try {
                stored = EnvelopeCodec.decode(StoredRecord.envelope(entry.record()));
            } catch (IllegalArgumentException e) {
                // unreadable (CorruptEnvelopeException included): left in the dead-letter queue for whoever inspects it
                LOG.warn("Dead letter {} of queue {} is not redriven: it cannot be read ({}); it stays in the dead-letter "
                         + "queue",
                        LogText.of(entry.messageId()), source.name(), e.getMessage());
                continue;
            }
            String id = DeadLetters.originalId(entry.messageId(), stored.headers());
            if (!wanted.test(id)) {
                // an id of the message's own that only starts like the one looked for
                continue;
            }
            if (!DeadLetters.cameFrom(stored.headers(), target.name())) {
                // a dead-letter queue that several queues share: each queue's redrive takes back its own dead letters
                ofOtherQueues++;
                continue;
            }
            candidates.put(entry.entryId(), new Candidate(entry, id, stored));
        }
        Set<ReadyEntry> moved = new HashSet<>();
        List<ReadyEntry> toClaim = candidates.values().stream().map(Candidate::entry).toList();
        for (int next = 0; next < toClaim.size() && moved.size() < most;) {
            int size = (int) Math.min(toClaim.size() - next, most - moved.size());
            List<ReadyEntry> chunk = toClaim.subList(next, next + size);
            next += size;
            List<ReadyEntry> claimed = source.inspection().claimForRedrive(chunk, token, CLAIM_MS);
            for (int i = 0; i < claimed.size(); i++) {
                try {
                    if (moveClaimed(source, candidates.get(claimed.get(i).entryId()), due)) {
                        moved.add(claimed.get(i));
                    }
                } catch (RuntimeException e) {
                    releaseClaims(source, claimed.subList(i + 1, claimed.size()), e);
                    throw e;
                }
            }
        }
        return new PageOutcome(
                moved.size(), ofOtherQueues,
                withHead.stream().filter(entry -> !moved.contains(entry)).toList());
    }

    /**
     * Lets go of the claims of dead letters this redrive claimed and did not copy, as it failed before it got to them:
     * held until they lapse, they would keep a redrive asked again at once from moving them for a minute. The one whose
     * copy failed keeps its claim: it may be in the queue already.
     */
    private void releaseClaims(QueueShard source, List<ReadyEntry> notCopied, RuntimeException failure) {
        try {
            notCopied.forEach(entry -> source.inspection().releaseRedriveClaim(entry, token));
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    /**
     * Copies a claimed dead letter back and removes it: left where it is when the queue holds its id again, or when a
     * consumer of the dead-letter queue fetched it meanwhile.
     *
     * @return whether it moved
     */
    private boolean moveClaimed(QueueShard source, Candidate candidate, DueTime due) {
        ReadyEntry entry = candidate.entry();
        byte[] envelope = EnvelopeCodec.encode(
                new Envelope(candidate.stored().body(), DeadLetters.originalHeaders(candidate.stored().headers())));
        if (!target.forMessage(candidate.id()).schedule(candidate.id(), envelope, due, OnDuplicate.keep).scheduled()) {
            // the queue holds the id again: a later redrive may move it once it no longer does
            source.inspection().releaseRedriveClaim(entry, token);
            return false;
        }
        ShardInspection.Discarded discarded = source.inspection().discard(entry);
        if (discarded == ShardInspection.Discarded.IN_FLIGHT) {
            // a consumer of the dead-letter queue fetched it between the listing and now
            LOG.warn("Dead letter {} of queue {} was copied back to queue {}, but a consumer of the dead-letter queue "
                     + "fetched it meanwhile: both have it now",
                    LogText.of(entry.messageId()), source.name(), target.name());
            return false;
        }
        if (discarded == ShardInspection.Discarded.GONE) {
            // moved all the same: the copy is in the queue
            LOG.warn("Dead letter {} of queue {} was copied back to queue {}, but had left the dead-letter queue meanwhile "
                     + "(purged, or acknowledged by a consumer of the dead-letter queue, which then had it too)",
                    LogText.of(entry.messageId()), source.name(), target.name());
        }
        return true;
    }
}
