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

import static io.github.camelredisdelay.internal.Replies.text;

/**
 * An entry of a ready stream, as {@code dead-letters.lua} and {@code redrive-ready.lua} list it.
 *
 * @param entryId   the stream entry id
 * @param messageId the message id
 * @param record    the record the entry holds ({@code record.lua})
 */
public record ReadyEntry(String entryId, String messageId, byte[] record) {

    /**
     * The entries a script's reply lists from index {@code first} on, three elements each: entry id, message id,
     * record.
     */
    static List<ReadyEntry> listed(List<Object> reply, int first) {
        List<ReadyEntry> entries = new ArrayList<>((reply.size() - first) / 3);
        for (int i = first; i + 2 < reply.size(); i += 3) {
            entries.add(new ReadyEntry(text(reply.get(i)), text(reply.get(i + 1)), (byte[]) reply.get(i + 2)));
        }
        return entries;
    }
}
