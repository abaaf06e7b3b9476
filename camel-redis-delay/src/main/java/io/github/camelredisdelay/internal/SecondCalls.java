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

import java.time.Duration;

/**
 * When a {@link GroupCommit} may send a second call while one is under way. On a long link (the shortest recent round
 * trip at least {@code linkBound}, see {@link RoundTrips}) callers wait for the link, and a second call leaves once
 * {@value #LONG_LINK_QUORUM} requests are queued behind the first: a quorum keeps it from carrying a lone message. On a
 * short link it depends on the machine. Where callers wait for Redis, a second call lets a few callers (four, say) send
 * in parallel instead of in calls of about two, one after the other; where they wait for the CPU (a small or busy
 * machine, many callers), it makes calls smaller and so dearer per message, and the waits longer (design notes 13). So
 * a {@link WayTrial} times requests from submitted to replied with a second call leaving once
 * {@value #SHORT_LINK_QUORUM} are queued (the costlier way) and without one, and takes the way that waits less. Until
 * the link is measured (no window of {@link RoundTrips} complete yet), one call stays: a client's first calls may still
 * wait for its pool's connections, and schedules queued behind such a call are better sent after it than beside it, in
 * a second call that would wait for a connection too.
 * <p>
 * Not thread-safe: its group commit guards it.
 */
public final class SecondCalls {

    /** Requests queued behind the call under way before a second call leaves beside it, on a long link. */
    static final int LONG_LINK_QUORUM = 4;
    /** The same on a short link, where a trial chose a second call. */
    static final int SHORT_LINK_QUORUM = 2;

    private final long linkBoundNanos;
    /** {@code null}: no second call on a short link. */
    private final WayTrial shortLinkTrial;

    private SecondCalls(Duration linkBound, boolean onShortLinkWhenFaster) {
        this.linkBoundNanos = linkBound.toNanos();
        this.shortLinkTrial = onShortLinkWhenFaster ? new WayTrial() : null;
    }

    /**
     * A second call only on a link at least {@code linkBound} long; {@code Duration.ofNanos(Long.MAX_VALUE)}: never.
     */
    public static SecondCalls onLongLink(Duration linkBound) {
        return new SecondCalls(linkBound, false);
    }

    /** A second call on a link at least {@code linkBound} long, and on a shorter one where a trial finds it faster. */
    public static SecondCalls onLongLinkOrWhenFaster(Duration linkBound) {
        return new SecondCalls(linkBound, true);
    }

    /**
     * Whether a second call may leave now, with {@code queued} requests waiting and the link's floor given
     * ({@link RoundTrips#floorNanos}, 0 while unknown).
     */
    boolean allowed(int queued, long floorNanos) {
        if (floorNanos >= linkBoundNanos) {
            return queued >= LONG_LINK_QUORUM;
        }
        return shortLinkTrial != null && floorNanos > 0 && queued >= SHORT_LINK_QUORUM
                && shortLinkTrial.costlierNext();
    }

    /**
     * For a request submitted now, whether it is timed for the trial and which way: {@code null} when not (a long link,
     * one not measured yet, or no trial), else whether a second call may leave meanwhile.
     */
    Boolean timedWay(long floorNanos) {
        return shortLinkTrial == null || floorNanos <= 0 || floorNanos >= linkBoundNanos
                ? null : shortLinkTrial.costlierNext();
    }

    /** Records how long a request timed as {@code secondCallWay} ({@link #timedWay}) took to be replied. */
    void record(boolean secondCallWay, long nanos) {
        shortLinkTrial.record(secondCallWay, nanos);
    }
}
