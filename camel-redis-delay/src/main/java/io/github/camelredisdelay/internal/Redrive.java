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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * failed and scheduled again (its {@code retrySchedule}) are made ready first, and moved as the others. Dead letters
 * such a consumer has fetched are left alone, unless it let their lease expire (it died or hangs), and so is one whose
 * id the queue holds again (a newer message with that id, or another dead letter of the id just moved), one another
 * queue dead-lettered (a dead-letter queue that several queues share), or one that cannot be read (with a warning). One
 * such a consumer fetches between the claim and the removal is in both queues afterwards, with a warning, and is not
 * counted as moved. Each dead letter is claimed before it is copied ({@code redrive-claim.lua}), so that of redrives
 * running at once only one moves it.
 */
public final class Redrive {

    private static final Logger LOG = LoggerFactory.getLogger(Redrive.class);

    /** The most dead letters one listing call returns. */
    static final int PAGE = 100;
    /** How long a redrive's claim on a dead letter lasts: after that, one that died after claiming leaves it free. */
    private static final long CLAIM_MS = 60_000;

    private final ShardedQueue deadLetterQueue;
    private final ShardedQueue target;
    /** Names this redrive's claims. */
    private final String token = MessageIds.next();

    public Redrive(ShardedQueue deadLetterQueue, ShardedQueue target) {
        this.deadLetterQueue = deadLetterQueue;
        this.target = target;
    }

    /**
     * Moves at most {@code limit} of the dead letters present when it starts, oldest first on each shard; dead letters
     * added meanwhile (those it moved that failed again included) are left for the next redrive.
     *
     * @return the number moved
     */
    public long some(long limit, DueTime due) {
        long moved = 0;
        long ofOtherQueues = 0;
        // every shard's listing ends where its stream ends now, before anything moves: a dead letter moved back that
        // fails again before it is removed here is dead-lettered as <id>#<stream entry>, on the shard that id picks,
        // which may be one not listed yet
        Map<QueueShard, ReadyListing> listings = new LinkedHashMap<>();
        for (QueueShard shard : deadLetterQueue.all()) {
            // dead letters a consumer of the dead-letter queue failed and scheduled again: ready now, so listed too
            shard.makeReady(true, limit, PAGE);
            ReadyListing listing = shard.inspection().readyListing("");
            listing.fixLast();
            listings.put(shard, listing);
        }
        for (Map.Entry<QueueShard, ReadyListing> shardListing : listings.entrySet()) {
            QueueShard shard = shardListing.getKey();
            ReadyListing listing = shardListing.getValue();
            List<ReadyEntry> page;
            int asked;
            do {
                asked = (int) Math.min(PAGE, limit - moved);
                page = listing.next(asked);
                PageOutcome outcome = move(shard, page, id -> true, due);
                moved += outcome.moved();
                ofOtherQueues += outcome.ofOtherQueues();
            } while (page.size() == asked && moved < limit);
            if (moved >= limit) {
                break;
            }
        }
        reportOtherQueues(ofOtherQueues);
        return moved;
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
        PageOutcome found = search(messageId, due);
        if (found.moved() == 0 && madeReady(messageId)) {
            found = search(messageId, due);
        }
        reportOtherQueues(found.ofOtherQueues());
        return found.moved() > 0;
    }

    /** Looks for a ready dead letter of this id ({@link #one}) and moves it; stops at the first that moves. */
    private PageOutcome search(String messageId, DueTime due) {
        long ofOtherQueues = 0;
        for (QueueShard shard : deadLetterQueue.allFrom(messageId)) {
            ReadyListing listing = shard.inspection().readyListing(messageId);
            // a page of the stream per call, each after the last: the search ends with the listing
            for (List<ReadyEntry> found = listing.next(1); !found.isEmpty(); found = listing.next(1)) {
                ReadyEntry entry = found.get(0);
                if (entry.messageId().isEmpty()) {
                    continue;
                }
                // asked by the message's id, or by the one a later dead letter of it is stored under
                PageOutcome outcome = move(shard, found,
                        id -> id.equals(messageId) || entry.messageId().equals(messageId), due);
                if (outcome.moved() > 0) {
                    return new PageOutcome(1, ofOtherQueues);
                }
                ofOtherQueues += outcome.ofOtherQueues();
            }
        }
        return new PageOutcome(0, ofOtherQueues);
    }

    /**
     * Makes the dead letters of this id that a consumer of the dead-letter queue failed and scheduled again ready now:
     * the one under the id, on its shard, and later ones under {@code <id>#...} on any shard.
     *
     * @return whether any was made ready
     */
    private boolean madeReady(String messageId) {
        boolean any = false;
        for (QueueShard shard : deadLetterQueue.all()) {
            List<String> ids = new ArrayList<>(shard.inspection().suffixedIds(messageId));
            if (shard == deadLetterQueue.forMessage(messageId)) {
                ids.add(0, messageId);
            }
            boolean rescheduled = false;
            for (String id : ids) {
                rescheduled |= shard.reschedule(id, DueTime.at(0)).scheduled();
            }
            if (rescheduled) {
                shard.makeReady(false, Long.MAX_VALUE, PAGE);
                any = true;
            }
        }
        return any;
    }

    /** What {@link #move} did with a page of dead letters. */
    private record PageOutcome(long moved, long ofOtherQueues) {
    }

    /** A dead letter to move back: its entry, the message's own id and what is stored of it. */
    private record Candidate(ReadyEntry entry, String id, Envelope stored) {
    }

    /**
     * Moves the dead letters of a page that are this queue's and {@code wanted}: they are claimed in one call first,
     * and those another redrive running at once holds are left to it.
     *
     * @param wanted whether the message's own id is one to move
     */
    private PageOutcome move(QueueShard source, List<ReadyEntry> page, Predicate<String> wanted, DueTime due) {
        Map<String, Candidate> candidates = new LinkedHashMap<>();
        long ofOtherQueues = 0;
        for (ReadyEntry entry : page) {
            Envelope stored;
            try {
                stored = EnvelopeCodec.decode(StoredRecord.envelope(entry.record()));
            } catch (IllegalArgumentException e) {
                // unreadable (CorruptEnvelopeException included): left in the dead-letter queue for whoever inspects it
                LOG.warn("Dead letter {} of queue {} is not redriven: it cannot be read ({}); it stays in the dead-letter "
                         + "queue",
                        entry.messageId(), source.name(), e.getMessage());
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
        long moved = 0;
        for (ReadyEntry claimed : source.inspection().claimForRedrive(
                candidates.values().stream().map(Candidate::entry).toList(), token, CLAIM_MS)) {
            moved += moveClaimed(source, candidates.get(claimed.entryId()), due) ? 1 : 0;
        }
        return new PageOutcome(moved, ofOtherQueues);
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
        if (!source.inspection().discard(entry)) {
            // a consumer of the dead-letter queue fetched it between the listing and now
            LOG.warn("Dead letter {} of queue {} was copied back to queue {}, but a consumer of the dead-letter queue "
                     + "fetched it meanwhile: both have it now",
                    entry.messageId(), source.name(), target.name());
            return false;
        }
        return true;
    }
}
