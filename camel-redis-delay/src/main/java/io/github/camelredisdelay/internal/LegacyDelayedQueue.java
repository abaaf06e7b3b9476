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

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.github.camelredisdelay.internal.ScriptCalls.Durability;
import org.redisson.api.RScript;

import static io.github.camelredisdelay.internal.Replies.bytes;
import static io.github.camelredisdelay.internal.Replies.toLong;

/**
 * A Redisson {@code RDelayedQueue} being migrated, and the migration's own keys beside it. Redisson keeps the pending
 * messages in {@code redisson_delay_queue_timeout:{name}} and {@code redisson_delay_queue:{name}} and the due ones in
 * the list {@code name}; all hash to the slot of {@code name}, and so do the private keys
 * {@code <prefix>:migrate:{name}:*}, so each claim and remove is one script on one slot.
 */
public final class LegacyDelayedQueue {

    /**
     * How long the queue a task migrates into stays the legacy queue's after its last claim, or after the removal of a
     * batch it claimed: a task migrating into another queue is refused meanwhile (a restart of the nodes of the first
     * does not hand the messages over), and for as long as a claimed batch is not removed (only the first queue's marks
     * keep it, repeated after a crash, from being delivered twice).
     */
    public static final long INTO_KEPT_MS = 10 * 60_000;

    private final String name;
    private final ScriptCalls scripts;

    public LegacyDelayedQueue(ConnectedClient client, String keyPrefix, String name) {
        this.name = QueueNames.validate(name);
        String base = keyPrefix + ":migrate:{" + name + "}:";
        List<Object> keys = List.of(
                "redisson_delay_queue_timeout:{" + name + "}",
                "redisson_delay_queue:{" + name + "}",
                name,
                base + "pending",
                base + "sequence",
                base + "owner",
                base + "unmark",
                base + "fence",
                base + "into");
        this.scripts = new ScriptCalls(client, "RDelayedQueue " + name, keys, WriteSync.NONE);
    }

    public String name() {
        return name;
    }

    /**
     * The first claim of a task: {@link #claim(String, String, long, int, boolean, long)} with {@code settled} false
     * and no lease number seen.
     */
    public LegacyBatch claim(String owner, String into, long leaseMs, int batchSize) {
        return claim(owner, into, leaseMs, batchSize, false, 0);
    }

    /**
     * Takes over what the legacy queue holds and returns the next batch; see {@code legacy-claim.lua}.
     *
     * @param owner     this task's token for the migration lease
     * @param into      the name of the queue this task migrates into: while a task migrating into another one claimed
     *                  within {@link #INTO_KEPT_MS}, the batch says so ({@link LegacyBatch#otherQueue()}) and holds
     *                  nothing
     * @param leaseMs   how long the lease lasts without a further claim
     * @param settled   whether this task cleared the marks of every batch it {@linkplain #remove removed}; when not, or
     *                  when the lease was another's, the batch names the ids to clear ({@link LegacyBatch#unmark()})
     * @param fenceSeen the highest lease number a queue shard refused this task's writes for
     *                  ({@link MigrationLeaseLostException#latestFence()}), else 0
     */
    public LegacyBatch claim(String owner, String into, long leaseMs, int batchSize, boolean settled, long fenceSeen) {
        // a claim lost in a failover only leaves the legacy keys as they were
        List<Object> reply = scripts.callAndWait("Migration claim", LuaScript.LEGACY_CLAIM, Durability.NONE,
                RScript.ReturnType.LIST, bytes(owner), bytes(leaseMs), bytes(batchSize), bytes(settled ? 1 : 0),
                bytes(fenceSeen), bytes(BatchLimits.MIGRATION_BATCH_BYTES), bytes(into), bytes(INTO_KEPT_MS));
        if (toLong(reply.get(0)) == -1) {
            return LegacyBatch.migratedInto(Replies.text(reply.get(6)), new MigrationLease(name, owner, 0),
                    toLong(reply.get(1)), toLong(reply.get(2)), toLong(reply.get(3)));
        }
        int first = 6 + (int) toLong(reply.get(5));
        List<String> unmark = new ArrayList<>(first - 6);
        for (int i = 6; i < first; i++) {
            unmark.add(new String((byte[]) reply.get(i), StandardCharsets.UTF_8));
        }
        List<LegacyMessage> messages = new ArrayList<>((reply.size() - first) / 3);
        for (int i = first; i < reply.size(); i += 3) {
            messages.add(new LegacyMessage((byte[]) reply.get(i), toLong(reply.get(i + 1)), (byte[]) reply.get(i + 2)));
        }
        return new LegacyBatch(
                toLong(reply.get(0)) == 1, new MigrationLease(name, owner, toLong(reply.get(4))), toLong(reply.get(1)),
                toLong(reply.get(2)), toLong(reply.get(3)), unmark, messages, null);
    }

    /**
     * Removes migrated messages from the pending set and keeps their ids for a later claim, in case this task dies
     * before it clears their marks; see {@code legacy-remove.lua}.
     *
     * @param  lease                       the lease the messages were claimed under
     * @return                             the messages left in the pending set
     * @throws MigrationLeaseLostException when this task no longer holds the lease: nothing was removed
     */
    public long remove(MigrationLease lease, List<LegacyMessage> migrated) {
        List<Object> args = new ArrayList<>(3 + 2 * migrated.size());
        args.add(bytes(lease.owner()));
        args.add(bytes(migrated.size()));
        migrated.forEach(message -> args.add(message.member()));
        migrated.forEach(message -> args.add(bytes(message.id())));
        args.add(bytes(INTO_KEPT_MS));
        // the legacy keys are Redisson's: no replicas are waited for (WriteSync.NONE)
        Long left = scripts.callAndWait("Migration remove", LuaScript.LEGACY_REMOVE, Durability.NONE,
                RScript.ReturnType.LONG, args.toArray());
        if (left == -1) {
            throw lease.lost("removing " + migrated.size() + " migrated messages", 0);
        }
        return left;
    }
}
