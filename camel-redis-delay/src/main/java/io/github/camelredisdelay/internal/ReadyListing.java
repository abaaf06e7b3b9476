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

import java.util.List;

import io.github.camelredisdelay.internal.ScriptCalls.Durability;
import org.redisson.api.RScript;

import static io.github.camelredisdelay.internal.Replies.bytes;
import static io.github.camelredisdelay.internal.Replies.text;

/**
 * The ready entries of a queue shard that no consumer has fetched, oldest first, page by page; see
 * {@code dead-letters.lua}. The listing ends with the entry that was the newest when the first page was read: entries
 * added meanwhile (dead letters a redrive moved that failed again) are never listed, so a redrive moves each dead
 * letter at most once.
 */
public final class ReadyListing {

    private final ScriptCalls scripts;
    private final String id;
    /** The next page starts after this entry; {@code "-"}: from the first not fetched. */
    private String after = "-";
    /** The listing's last entry; {@code "+"} until the first page fixes it. */
    private String last = "+";

    /** @param id only this message's entries; {@code ""}: any message */
    ReadyListing(ScriptCalls scripts, String id) {
        this.scripts = scripts;
        this.id = id;
    }

    /**
     * Fixes the listing's last entry now, at the stream's newest, without listing any: entries added after this call
     * are not listed. Done by the first call of {@link #next} otherwise.
     */
    public void fixLast() {
        if ("+".equals(last)) {
            next(0);
        }
    }

    /**
     * The next page: at most {@code limit} entries; when looking for one message, its next entry within one page of the
     * stream, or an entry with an empty message id when that page holds none and more may follow (call again).
     *
     * @return the entries; none when the listing has ended
     */
    public List<ReadyEntry> next(int limit) {
        List<Object> reply = scripts.callAndWait("Listing of dead letters", LuaScript.DEAD_LETTERS, Durability.NONE,
                RScript.ReturnType.LIST, bytes(limit), bytes(after), bytes(last), bytes(id));
        last = text(reply.get(0));
        List<ReadyEntry> entries = ReadyEntry.listed(reply, 1);
        if (!entries.isEmpty()) {
            after = entries.get(entries.size() - 1).entryId();
        }
        return entries;
    }
}
