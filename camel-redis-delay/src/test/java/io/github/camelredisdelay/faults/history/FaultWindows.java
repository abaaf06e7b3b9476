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
package io.github.camelredisdelay.faults.history;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * When Redis itself was disturbed in a round (killed, its clients' connections closed, its writes paused), for the
 * {@link ContractChecker}: an operation or delivery near one of these windows may have an outcome other than its reply
 * says, so the rules that need a sure reply let it pass. Empty in rounds without Redis faults, where every rule holds
 * as it stands.
 */
public final class FaultWindows {

    /**
     * How long after a fault an operation still counts as disturbed by it: a write the pause held runs when it ends, a
     * reply may come late.
     */
    static final long OPERATION_SLACK_MS = 300;
    /**
     * How long after a fault a delivery, or a failure, may still follow from it: leases cut short, acknowledgements and
     * reconnections retried.
     */
    static final long AFTERMATH_MS = 5000;
    /** Longer than a reply takes but for a fault: the client's timeout is 3 s. */
    static final long LONGEST_REPLY_MS = 2500;

    /** One disturbance: what it was and when, epoch ms; {@code end} is {@code Long.MAX_VALUE} while it lasts. */
    record Window(String kind, long start, long end) {
    }

    private final List<Window> windows = new CopyOnWriteArrayList<>();

    /** Notes that a disturbance of this kind starts now; returns its index for {@link #ended}. */
    synchronized int started(String kind) {
        windows.add(new Window(kind, System.currentTimeMillis(), Long.MAX_VALUE));
        return windows.size() - 1;
    }

    /** Notes that the disturbance {@link #started} returned {@code index} for is over. */
    synchronized void ended(int index) {
        Window window = windows.get(index);
        windows.set(index, new Window(window.kind(), window.start(), System.currentTimeMillis()));
    }

    /** Whether [start, end] meets a window widened by {@code slack} after its end. */
    boolean overlaps(long start, long end, long slack) {
        // a window that lasts has no end yet: Long.MAX_VALUE, which slack must not overflow
        return windows.stream()
                .anyMatch(w -> w.end() >= start - slack && end >= w.start() - MessageVersion.CLOCK_SLACK_MS);
    }

    /**
     * Whether an operation's reply may not tell its outcome: it failed, took longer than a reply can, or met a fault.
     */
    boolean unsure(Operation op) {
        return op.error != null || op.end - op.start > LONGEST_REPLY_MS || met(op);
    }

    /** Whether an operation ran during a fault, or right after one. */
    boolean met(Operation op) {
        return overlaps(op.start, op.end, OPERATION_SLACK_MS);
    }

    /** Whether a failure of an operation may follow from a fault. */
    boolean excuses(Operation op) {
        return overlaps(op.start, op.end, AFTERMATH_MS);
    }

    int count() {
        return windows.size();
    }

    /** How many of each kind. */
    Map<String, Long> byKind() {
        return windows.stream().collect(Collectors.groupingBy(Window::kind, TreeMap::new, Collectors.counting()));
    }

    @Override
    public String toString() {
        return windows.stream().map(w -> w.kind() + " " + w.start() + ".." + w.end()).toList().toString();
    }
}
