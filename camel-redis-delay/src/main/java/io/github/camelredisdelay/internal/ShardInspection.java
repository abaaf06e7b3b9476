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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.github.camelredisdelay.internal.ScriptCalls.Durability;
import org.redisson.api.RScript;

import static io.github.camelredisdelay.internal.Replies.bytes;
import static io.github.camelredisdelay.internal.Replies.text;
import static io.github.camelredisdelay.internal.Replies.toLong;

/**
 * Reading a queue shard's messages without delivering them, and removing them, for operators: browse, peek, purge and
 * the two halves of a redrive.
 */
public final class ShardInspection {

    private final ScriptCalls scripts;
    private final String queue;

    /** @param queue the name of the queue the shard belongs to */
    ShardInspection(ScriptCalls scripts, String queue) {
        this.scripts = scripts;
        this.queue = queue;
    }

    /**
     * Reads one message by id without changing it; see {@code peek.lua}.
     *
     * @return the message, or {@code null} when this queue holds none with this id
     */
    public InspectedMessage peek(String id) {
        return peek(id, LuaScript.PEEK);
    }

    /** {@link #peek}, read on the master even where Redisson reads from replicas. */
    public InspectedMessage peekOnMaster(String id) {
        return peek(id, LuaScript.PEEK_ON_MASTER);
    }

    private InspectedMessage peek(String id, LuaScript peek) {
        // a page of the ready stream per call, each after the last, until the call that finds the message's state
        List<Object> reply;
        String after = "";
        do {
            reply = scripts.callAndWait("Peek of message " + LogText.of(id), peek, Durability.NONE, RScript.ReturnType.LIST,
                    bytes(id),
                    bytes(after));
            after = reply.size() == 2 ? text(reply.get(1)) : null;
        } while (after != null);
        if (reply.isEmpty()) {
            return null;
        }
        return InspectedMessage.of(queue, id, text(reply.get(0)), (byte[]) reply.get(1), (byte[]) reply.get(2),
                toLong(reply.get(3)));
    }

    /**
     * The ids this shard holds that start with {@code <id>#}: those of the later dead letters of the id a dead-letter
     * queue holds ({@link DeadLetters}), and any of a message's own that only start so; one {@code HSCAN} page per
     * call, see {@code dead-letter-ids.lua}.
     */
    public Set<String> suffixedIds(String id) {
        Set<String> ids = new LinkedHashSet<>();
        String cursor = "0";
        do {
            List<Object> reply
                    = scripts.callAndWait("Search for dead letters of message " + LogText.of(id), LuaScript.DEAD_LETTER_IDS,
                            Durability.NONE, RScript.ReturnType.LIST, bytes(id), bytes(cursor));
            cursor = text(reply.get(0));
            reply.subList(1, reply.size()).forEach(found -> ids.add(text(found)));
        } while (!"0".equals(cursor));
        return ids;
    }

    /**
     * Removes up to {@code chunk} scheduled and up to {@code chunk} ready or in-flight messages of those the shard held
     * when the purge started; see {@code purge.lua}.
     *
     * @param  progress {@link PurgeProgress#START}, or what the last call returned
     * @return          the progress, with this call's removed messages added
     */
    public PurgeProgress purgeChunk(int chunk, PurgeProgress progress) {
        List<Object> reply = scripts.callAndWait("Purge", LuaScript.PURGE, Durability.REQUIRED, RScript.ReturnType.LIST,
                bytes(chunk), bytes(progress.dueFrom()), bytes(progress.dueTo()), bytes(progress.streamTo()));
        return new PurgeProgress(
                progress.removed() + toLong(reply.get(0)), toLong(reply.get(1)) == 1, text(reply.get(2)),
                text(reply.get(3)), text(reply.get(4)));
    }

    /** Ends a purge of this shard that failed part-way; see {@code purge-end.lua}. */
    public void endFailedPurge() {
        scripts.callAndWait("End of a failed purge", LuaScript.PURGE_END, Durability.NONE, RScript.ReturnType.LONG);
    }

    /**
     * Lists at most {@code limit} messages of each state (in flight, ready, scheduled); with {@code newest}, at most
     * {@code limit} stream entries; see {@code browse.lua}.
     *
     * @param newest stream entries newest first and no scheduled ones (for dead-letter queues), else stream entries
     *               oldest first and scheduled messages in due order
     */
    public List<InspectedMessage> browse(int limit, boolean newest) {
        List<Object> reply = scripts.callAndWait("Browse", LuaScript.BROWSE, Durability.NONE, RScript.ReturnType.LIST,
                bytes(limit), bytes(newest ? "newest" : "due"));
        List<InspectedMessage> messages = new ArrayList<>(reply.size() / 5);
        for (int i = 0; i < reply.size(); i += 5) {
            messages.add(InspectedMessage.of(queue, text(reply.get(i + 1)), text(reply.get(i)), (byte[]) reply.get(i + 2),
                    (byte[]) reply.get(i + 3), toLong(reply.get(i + 4))));
        }
        return messages;
    }

    /**
     * Lists ready entries no consumer has fetched, page by page; see {@link ReadyListing}.
     *
     * @param id only this message's entries; {@code ""}: any message
     */
    public ReadyListing readyListing(String id) {
        return new ReadyListing(scripts, id);
    }

    /**
     * Claims dead letters for the redrive named by {@code token}, for {@code claimMs}, in one call; see
     * {@code redrive-claim.lua}.
     *
     * @return those it holds now: the others are gone, fetched by a consumer or another redrive holds them
     */
    public List<ReadyEntry> claimForRedrive(List<ReadyEntry> entries, String token, long claimMs) {
        if (entries.isEmpty()) {
            return entries;
        }
        List<Object> held = redriveClaims(entries, token, claimMs, true);
        List<ReadyEntry> claimed = new ArrayList<>(entries.size());
        for (int i = 0; i < entries.size(); i++) {
            if (toLong(held.get(i)) == 1) {
                claimed.add(entries.get(i));
            }
        }
        return claimed;
    }

    /** Gives up a claim {@link #claimForRedrive} took, when the redrive did not copy the dead letter. */
    public void releaseRedriveClaim(ReadyEntry entry, String token) {
        redriveClaims(List.of(entry), token, 0, false);
    }

    private List<Object> redriveClaims(List<ReadyEntry> entries, String token, long claimMs, boolean claim) {
        List<Object> args = new ArrayList<>(entries.size() + 3);
        args.add(bytes(token));
        args.add(bytes(claimMs));
        args.add(bytes(claim ? 1 : 0));
        entries.forEach(entry -> args.add(bytes(entry.entryId())));
        return scripts.callAndWait("Redrive claim of " + entries.size() + " dead letters", LuaScript.REDRIVE_CLAIM,
                Durability.NONE, RScript.ReturnType.LIST, args.toArray());
    }

    /**
     * One page of the shard's scheduled messages with their records; see {@code scheduled-page.lua}.
     *
     * @param cursor "0" for the first page, else the one the page before returned
     */
    public ScheduledPage scheduledPage(String cursor) {
        List<Object> reply = scripts.callAndWait("Listing of scheduled messages", LuaScript.SCHEDULED_PAGE, Durability.NONE,
                RScript.ReturnType.LIST, bytes(cursor));
        List<StoredMessage> scheduled = new ArrayList<>((reply.size() - 1) / 2);
        for (int i = 1; i + 1 < reply.size(); i += 2) {
            scheduled.add(new StoredMessage(text(reply.get(i)), (byte[]) reply.get(i + 1)));
        }
        return new ScheduledPage(text(reply.get(0)), scheduled);
    }

    /** A page {@link #scheduledPage} read, and the cursor of the next ("0": it was the last). */
    public record ScheduledPage(String cursor, List<StoredMessage> scheduled) {
    }

    /** A message's id and the record stored under it. */
    public record StoredMessage(String id, byte[] record) {

        /** The message's id and the version its record holds. */
        public MessageVersion version() {
            return new MessageVersion(id, StoredRecord.version(record));
        }
    }

    /** A message's id and a version of it ({@code record.lua}). */
    public record MessageVersion(String id, byte[] version) {
    }

    /**
     * Makes scheduled dead letters ready for a redrive, each while it is still the version listed; see
     * {@code redrive-ready.lua}.
     *
     * @return the ready entries those made ready became
     */
    public List<ReadyEntry> makeReadyForRedrive(List<MessageVersion> deadLetters) {
        if (deadLetters.isEmpty()) {
            return List.of();
        }
        List<Object> args = new ArrayList<>(deadLetters.size() * 2);
        for (MessageVersion deadLetter : deadLetters) {
            args.add(bytes(deadLetter.id()));
            args.add(deadLetter.version());
        }
        return ReadyEntry.listed(scripts.callAndWait("Making " + deadLetters.size() + " dead letters ready for a redrive",
                LuaScript.REDRIVE_READY, Durability.REQUIRED, RScript.ReturnType.LIST, args.toArray()), 0);
    }

    /**
     * Takes or moves on, for {@code lastsMs} from now, the turn of the redrive named by {@code token} among the
     * redrives from this dead-letter queue, or gives it up ({@code lastsMs} 0); see {@code redrive-turn.lua}.
     *
     * @return 0 when the redrive holds the turn (or gave it up), else the ms until the turn of the one holding it
     *         lapses
     */
    public long redriveTurn(String token, long lastsMs) {
        return toLong(scripts.callAndWait("Redrive turn", LuaScript.REDRIVE_TURN, Durability.NONE, RScript.ReturnType.LONG,
                bytes(token), bytes(lastsMs)));
    }

    /**
     * Puts dead letters a redrive made ready before their due time and did not move back into the due set, each for the
     * due time its record holds (the one it was scheduled for, which making it ready kept); see
     * {@code redrive-return.lua}.
     */
    public void returnToDueSet(List<ReadyEntry> entries) {
        if (entries.isEmpty()) {
            return;
        }
        List<Object> args = new ArrayList<>(entries.size() * 4);
        for (ReadyEntry entry : entries) {
            args.add(bytes(entry.entryId()));
            args.add(bytes(entry.messageId()));
            args.add(StoredRecord.version(entry.record()));
            args.add(bytes(StoredRecord.dueAt(entry.record())));
        }
        scripts.callAndWait("Return of " + entries.size() + " dead letters to the due set", LuaScript.REDRIVE_RETURN,
                Durability.REQUIRED, RScript.ReturnType.LONG, args.toArray());
    }

    /** What {@link #discard} found of a ready entry copied elsewhere ({@code discard.lua}'s status, {@link Wire}). */
    public enum Discarded {
        /** Removed, with its record while that was the version the entry held. */
        REMOVED,
        /** Left to the consumer that fetched it meanwhile (which may have scheduled it again). */
        IN_FLIGHT,
        /** Gone already, with its message: purged, or acknowledged by a consumer, meanwhile. */
        GONE
    }

    /**
     * Removes a ready entry copied elsewhere, with its record while that is the version the entry holds; see
     * {@code discard.lua}.
     */
    public Discarded discard(ReadyEntry entry) {
        Long outcome = scripts.callAndWait("Removal of redriven message " + entry.messageId(), LuaScript.DISCARD,
                Durability.REQUIRED, RScript.ReturnType.LONG, bytes(entry.entryId()), bytes(entry.messageId()),
                StoredRecord.version(entry.record()));
        return switch (outcome.intValue()) {
            case Wire.DISCARD_REMOVED -> Discarded.REMOVED;
            case Wire.DISCARD_IN_FLIGHT -> Discarded.IN_FLIGHT;
            case Wire.DISCARD_GONE -> Discarded.GONE;
            default -> throw new IllegalStateException("Unexpected status of discard.lua: " + outcome);
        };
    }
}
