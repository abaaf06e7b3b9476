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
package io.github.camelredisdelay.embedded;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One node as a cluster member sees it in its {@code CLUSTER NODES} reply: id, port, flags, the master it replicates
 * and the slots it serves. Only what the deployment needs is kept.
 *
 * @param id       the node id
 * @param port     the client port (the bus port is this plus 10000)
 * @param flags    e.g. {@code myself}, {@code master}, {@code slave}, {@code fail?}, {@code fail}
 * @param masterId the id of the master it replicates, or {@code -} for a master
 * @param linked   whether the reporting node's cluster bus link to it is up both ways: {@code connected}, no ping
 *                 waiting for its pong and a pong received; always for itself
 * @param slots    the slot ranges it serves; empty for a replica
 */
record ClusterNode(String id, int port, Set<String> flags, String masterId, boolean linked, List<SlotRange> slots) {

    /** {@code 127.0.0.1:7000@17000} in 6.2, optionally followed by {@code ,hostname} in 7.0. */
    private static final Pattern ADDRESS = Pattern.compile(":(\\d+)@");
    private static final int PING_SENT_FIELD = 4;
    private static final int PONG_RECEIVED_FIELD = 5;
    private static final int LINK_STATE_FIELD = 7;
    private static final int FIRST_SLOT_FIELD = 8;

    /** The inclusive slot range {@code first-last}; a single slot has {@code first == last}. */
    record SlotRange(int first, int last) {

        boolean contains(int slot) {
            return first <= slot && slot <= last;
        }
    }

    ClusterNode {
        flags = Set.copyOf(flags);
        slots = List.copyOf(slots);
    }

    /** Parses every line of a {@code CLUSTER NODES} reply. */
    static List<ClusterNode> parseAll(String reply) {
        return reply.lines().filter(line -> !line.isBlank()).map(ClusterNode::parse).toList();
    }

    /** Parses one line, e.g. {@code <id> 127.0.0.1:7000@17000 myself,master - 0 0 1 connected 0-5460}. */
    static ClusterNode parse(String line) {
        String[] fields = line.strip().split(" ");
        Matcher address = ADDRESS.matcher(fields.length > 1 ? fields[1] : "");
        if (fields.length < FIRST_SLOT_FIELD || !address.find()) {
            throw new IllegalArgumentException("Not a CLUSTER NODES line: '" + line + "'");
        }
        List<SlotRange> slots = new ArrayList<>();
        for (int i = FIRST_SLOT_FIELD; i < fields.length; i++) {
            // "[slot->-id]" and "[slot-<-id]" mark slots in migration, which their owner still serves
            if (!fields[i].startsWith("[")) {
                slots.add(slotRange(fields[i]));
            }
        }
        Set<String> flags = Set.of(fields[2].split(","));
        return new ClusterNode(
                fields[0], Integer.parseInt(address.group(1)), flags, fields[3], linked(fields, flags), slots);
    }

    boolean isMaster() {
        return flags.contains("master");
    }

    /** Whether the reporting node believes this one is down ({@code fail}) or may be ({@code fail?}). */
    boolean isFailing() {
        return flags.contains("fail") || flags.contains("fail?");
    }

    boolean serves(int slot) {
        return slots.stream().anyMatch(range -> range.contains(slot));
    }

    /**
     * The link is {@code connected} as soon as its connect starts; it is up both ways once no ping waits for its pong
     * and a pong came. The reporting node has no link to itself, so its own line counts as linked.
     */
    private static boolean linked(String[] fields, Set<String> flags) {
        return "connected".equals(fields[LINK_STATE_FIELD])
                && (flags.contains("myself")
                        || "0".equals(fields[PING_SENT_FIELD]) && !"0".equals(fields[PONG_RECEIVED_FIELD]));
    }

    private static SlotRange slotRange(String field) {
        int dash = field.indexOf('-');
        return dash < 0
                ? new SlotRange(Integer.parseInt(field), Integer.parseInt(field))
                : new SlotRange(Integer.parseInt(field.substring(0, dash)), Integer.parseInt(field.substring(dash + 1)));
    }
}
