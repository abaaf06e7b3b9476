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
import java.util.List;

import io.github.camelredisdelay.internal.ScriptCalls.Durability;
import org.redisson.api.RScript;

import static io.github.camelredisdelay.internal.Replies.bytes;
import static io.github.camelredisdelay.internal.Replies.toLong;

/**
 * Writing the messages of a migration from an {@code RDelayedQueue} into a queue shard, with marks that make a repeated
 * batch harmless.
 */
public final class ShardMigration {

    private final ScriptCalls scripts;

    ShardMigration(ScriptCalls scripts) {
        this.scripts = scripts;
    }

    /**
     * Writes messages migrated from a legacy queue and marks their ids; see {@code migrate.lua}.
     *
     * @param  lease                       the lease the messages were claimed under
     * @param  envelopes                   the envelope of each message, in the order of {@code messages}
     * @return                             how many were stored (the others were written before)
     * @throws MigrationLeaseLostException when a task with a later lease wrote to this shard: nothing was written
     */
    public int migrate(MigrationLease lease, List<LegacyMessage> messages, List<byte[]> envelopes) {
        List<Object> items = new ArrayList<>(messages.size() * 3);
        for (int i = 0; i < messages.size(); i++) {
            items.add(bytes(messages.get(i).id()));
            items.add(envelopes.get(i));
            items.add(bytes(messages.get(i).dueAt()));
        }
        List<Object> reply = callUnderLease(lease, "writing " + messages.size() + " migrated messages", LuaScript.MIGRATE,
                Durability.REQUIRED, items);
        return (int) reply.stream().skip(1).filter(status -> toLong(status) == Wire.STATUS_SCHEDULED).count();
    }

    /**
     * Clears the marks {@link #migrate} set, once the legacy copies are gone; see {@code migrated-forget.lua}.
     *
     * @throws MigrationLeaseLostException when a task with a later lease wrote to this shard: nothing was cleared
     */
    public void forgetMigrated(MigrationLease lease, List<String> messageIds) {
        List<Object> items = new ArrayList<>(messageIds.size());
        messageIds.forEach(id -> items.add(bytes(id)));
        callUnderLease(lease, "clearing " + messageIds.size() + " migration marks", LuaScript.MIGRATED_FORGET,
                Durability.NONE, items);
    }

    /**
     * Runs {@code lua} with the lease's legacy queue and number before {@code items}; a refusal by
     * {@code migration-fence.lua} (a reply {@code {-1, latest}}) fails it.
     */
    private List<Object> callUnderLease(
            MigrationLease lease, String what, LuaScript lua, Durability durability,
            List<Object> items) {
        List<Object> args = new ArrayList<>(2 + items.size());
        args.add(bytes(lease.legacyQueue()));
        args.add(bytes(lease.fence()));
        args.addAll(items);
        List<Object> reply
                = scripts.callAndWait("Migration: " + what, lua, durability, RScript.ReturnType.LIST, args.toArray());
        if (toLong(reply.get(0)) == -1) {
            throw lease.lost(what, toLong(reply.get(1)));
        }
        return reply;
    }
}
