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

import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.stream.Stream;

import io.github.camelredisdelay.NotReplicatedException;
import org.redisson.client.RedisTimeoutException;

/**
 * The shards of one queue ({@code shards} option): each a {@link QueueShard} with keys of its own hash tag (see
 * {@link ShardTags}). A message lives on the shard its id picks; consumers and transfer tasks serve every shard. With
 * one shard this is just the queue.
 */
public final class ShardedQueue {

    private final String name;
    private final List<String> tags;
    private final List<QueueShard> shards;

    private ShardedQueue(String name, List<String> tags, List<QueueShard> shards) {
        this.name = name;
        this.tags = tags;
        this.shards = shards;
    }

    /** @param completer where the stages of {@link QueueShard#scheduleAsync} complete: one task per script call */
    public static ShardedQueue of(
            ConnectedClient client, String keyPrefix, String queue, int shards, WriteSync sync, Executor completer) {
        List<String> tags = ShardTags.of(queue, shards);
        return new ShardedQueue(
                queue, tags, tags.stream()
                        .map(tag -> new QueueShard(client, QueueKeys.of(keyPrefix, queue, tag), sync, completer))
                        .toList());
    }

    public String name() {
        return name;
    }

    /** Every shard, shard 0 first. */
    public List<QueueShard> all() {
        return shards;
    }

    /** The shard that holds (or will hold) the message with this id. */
    public QueueShard forMessage(String messageId) {
        return shards.get(ShardTags.shardOf(messageId, shards.size()));
    }

    /** Every shard, the one that holds (or will hold) the message with this id first. */
    public List<QueueShard> allFrom(String messageId) {
        QueueShard own = forMessage(messageId);
        return Stream.concat(Stream.of(own), shards.stream().filter(shard -> shard != own)).toList();
    }

    /** Shard 0: the one to ask for things every shard answers alike, such as Redis' clock. */
    public QueueShard first() {
        return shards.get(0);
    }

    /**
     * The counts of every shard added up; the oldest overdue time is the largest of any shard.
     */
    public QueueCounts counts() {
        return Futures.await(countsAsync());
    }

    /** {@link #counts}: one {@code stats.lua} call per shard, all sent at once. */
    public CompletionStage<QueueCounts> countsAsync() {
        List<CompletableFuture<QueueCounts>> replies = shards.stream()
                .map(shard -> shard.countsAsync().toCompletableFuture()).toList();
        return CompletableFuture.allOf(replies.toArray(CompletableFuture[]::new))
                .thenApply(done -> sum(replies.stream().map(CompletableFuture::join).toList()));
    }

    private static QueueCounts sum(List<QueueCounts> perShard) {
        long scheduled = 0;
        long ready = 0;
        long inFlight = 0;
        long oldestOverdueMs = 0;
        long redisNow = 0;
        for (QueueCounts counts : perShard) {
            scheduled += counts.scheduled();
            ready += counts.ready();
            inFlight += counts.inFlight();
            oldestOverdueMs = Math.max(oldestOverdueMs, counts.oldestOverdueMs());
            redisNow = Math.max(redisNow, counts.redisNow());
        }
        return new QueueCounts(scheduled, ready, inFlight, oldestOverdueMs, redisNow);
    }

    /**
     * Reads one message by id without changing it, from the shard its id picks.
     *
     * @return the message, or {@code null} when the queue holds none with this id
     */
    public InspectedMessage peek(String id) {
        return forMessage(id).inspection().peek(id);
    }

    /**
     * The message with this id from this queue, or else the newest of its dead letters in {@code deadLetters}
     * ({@link #newestDeadLetter}).
     *
     * @return the message, or {@code null} when neither holds one with this id
     */
    public InspectedMessage peek(String id, ShardedQueue deadLetters) {
        InspectedMessage found = peek(id);
        return found != null ? found : deadLetters.newestDeadLetter(name, id);
    }

    /**
     * Of the dead letters of message {@code id} of {@code queue} that this dead-letter queue holds, under the id or as
     * a later dead letter of the id under {@code <id>#<stream entry>} or {@code <id>#<stream entry>.<n>}
     * ({@link DeadLetters}) on any shard, the newest: the one dead-lettered last; for an {@code id} that is such a
     * later dead letter's, that one (the id a peek reports, which a redrive takes too). Never another queue's, of a
     * dead-letter queue that several queues share ({@link DeadLetters#isDeadLetterOf}). Reads every shard's record
     * hash, a page per script call.
     *
     * @return the dead letter, in state {@code dead} and with the id it is held under, or {@code null} when there is
     *         none
     */
    private InspectedMessage newestDeadLetter(String queue, String id) {
        Stream<String> heldUnder = Stream.concat(Stream.of(id),
                shards.stream().flatMap(shard -> shard.inspection().suffixedIds(id).stream()));
        return heldUnder.map(this::peek).filter(Objects::nonNull)
                .filter(dead -> DeadLetters.isDeadLetterOf(queue, id, dead.id(), dead.envelope()))
                .max(Comparator.comparingLong(InspectedMessage::scheduledAt)).map(InspectedMessage::dead).orElse(null);
    }

    /**
     * At most {@code limit} messages of the queue, scheduled, ready and in flight, earliest due time first; reads at
     * most four times {@code limit} messages per shard (that many of each state, handed back ones apart).
     */
    public List<InspectedMessage> browse(int limit) {
        return browseEachState(limit).stream().limit(limit).toList();
    }

    /**
     * Of each state (in flight, ready, scheduled), at most {@code limit} messages of each shard, earliest due time
     * first: a backlog in one state does not crowd the others out.
     */
    public List<InspectedMessage> browseEachState(int limit) {
        return shards.stream().flatMap(shard -> shard.inspection().browse(limit, false).stream())
                .sorted(Comparator.comparingLong(InspectedMessage::dueAt)).toList();
    }

    /**
     * At most {@code limit} of the messages that entered the queue last (for a dead-letter queue: the newest dead
     * letters), newest first.
     */
    public List<InspectedMessage> newest(int limit) {
        return shards.stream().flatMap(shard -> shard.inspection().browse(limit, true).stream())
                .sorted(Comparator.comparingLong(InspectedMessage::scheduledAt).reversed()).limit(limit).toList();
    }

    /**
     * Removes every message of every shard, {@code chunk} at a time per script call, so no call blocks Redis for long.
     * Every message a shard held when its purge started is removed; messages scheduled while it runs are removed when
     * the walk of the due set meets them (see {@code purge.lua}).
     *
     * @return the messages removed
     */
    public long purge(int chunk) {
        long removed = 0;
        for (QueueShard shard : shards) {
            PurgeProgress progress = PurgeProgress.START;
            while (!progress.done()) {
                PurgeProgress before = progress;
                try {
                    progress = shard.inspection().purgeChunk(chunk, progress);
                } catch (RuntimeException e) {
                    // a call without an answer in time may have run, and one short of replicas did: either may have
                    // ended the purge itself, and its mark then lapses
                    if (before != PurgeProgress.START && RootCause.first(e, cause -> cause instanceof RedisTimeoutException
                            || cause instanceof NotReplicatedException) == null) {
                        endFailedPurge(shard, e);
                    }
                    throw e;
                }
            }
            removed += progress.removed();
        }
        return removed;
    }

    /**
     * Ends a purge whose call after the first failed, so that its mark of a purge under way, which makes a failed
     * delivery of an older message be removed rather than retried, does not hold for the minute until it lapses. Not
     * after a call that got no answer in time, or reached too few replicas: it may have run to the end, and ended the
     * purge itself, and ending it again would end another purge of the queue under way.
     */
    private static void endFailedPurge(QueueShard shard, RuntimeException failure) {
        try {
            shard.inspection().endFailedPurge();
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    /** All messages of every shard, whatever their state. */
    public long size() {
        return Futures.await(sizeAsync());
    }

    /** {@link #size}: one {@code HLEN} per shard, all sent at once. */
    public CompletionStage<Long> sizeAsync() {
        List<CompletableFuture<Integer>> replies
                = shards.stream().map(shard -> shard.sizeAsync().toCompletableFuture()).toList();
        return CompletableFuture.allOf(replies.toArray(CompletableFuture[]::new))
                .thenApply(done -> replies.stream().mapToLong(CompletableFuture::join).sum());
    }

    /**
     * How messages name one of this queue's shards: by the queue's name alone when it has one shard, else also by the
     * shard's number and hash tag, with which {@code CLUSTER KEYSLOT} finds its slot and so its master.
     */
    public String describe(QueueShard shard) {
        if (shards.size() == 1) {
            return name;
        }
        int index = shards.indexOf(shard);
        return name + " (shard " + (index + 1) + " of " + shards.size() + ", hash tag {" + tags.get(index) + "})";
    }
}
