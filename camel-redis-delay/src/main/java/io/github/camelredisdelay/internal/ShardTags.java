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

/**
 * The hash tags of a queue's shards. Shard 0 is the queue name itself, so a queue with one shard has the plain layout.
 * Shard {@code i} is {@code <queue>#<n>}, with the smallest {@code n} whose cluster slot lies {@code i/N} of the slot
 * space after shard 0's: the shards are evenly spaced over the slots, so on a cluster whose masters own equal slot
 * ranges, N shards land on N different masters whenever N is less than the number of masters, and with as many shards
 * as masters unless shard 0's slot is the first of a master's range, as ranges of {@code redis-cli}'s split differ by
 * one slot (design notes §11). {@code #} is not allowed in queue names, so a shard tag never names another queue.
 */
public final class ShardTags {

    /** Number of cluster slots. */
    static final int SLOTS = 16384;
    /** Bound of the search for a tag; a slot is hit after about 16384 tries, so this is never reached in practice. */
    private static final int MAX_SEARCH = 1_000_000;

    private ShardTags() {
    }

    /**
     * The tags of the {@code shards} shards of {@code queue}, shard 0 first.
     */
    public static List<String> of(String queue, int shards) {
        List<String> tags = new ArrayList<>(shards);
        tags.add(queue);
        int first = slot(queue);
        for (int shard = 1; shard < shards; shard++) {
            tags.add(tagNear(queue, (first + (int) ((long) shard * SLOTS / shards)) % SLOTS));
        }
        return tags;
    }

    /**
     * The shard of a message: every producer finds the same one for an id, so cancel and reschedule reach it.
     */
    public static int shardOf(String messageId, int shards) {
        return shards == 1 ? 0 : Math.floorMod(messageId.hashCode(), shards);
    }

    private static String tagNear(String queue, int targetSlot) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (int n = 1; n <= MAX_SEARCH; n++) {
            String tag = queue + "#" + n;
            int distance = Math.abs(slot(tag) - targetSlot);
            if (distance < bestDistance) {
                best = tag;
                bestDistance = distance;
                if (distance == 0) {
                    break;
                }
            }
        }
        return best;
    }

    /**
     * The Redis Cluster slot of a hash tag: CRC16 (XMODEM) of its bytes, modulo 16384.
     */
    static int slot(String tag) {
        int crc = 0;
        for (byte b : tag.getBytes(StandardCharsets.UTF_8)) {
            crc ^= (b & 0xFF) << 8;
            for (int bit = 0; bit < 8; bit++) {
                crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
            }
            crc &= 0xFFFF;
        }
        return crc % SLOTS;
    }
}
