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

/**
 * The outcome of one look for expired leases ({@code reclaim.lua}): it takes over handed-back messages first, wherever
 * they are in the pending list, then covers a bounded stretch of it.
 *
 * @param deliveries     the messages taken over
 * @param cursor         the entry id the next look starts from; {@link #FROM_START} when this one reached the end; the
 *                       one it started from when it looked at a full page of handed-back messages
 * @param handedBack     how many of them a stopping or suspended consumer handed back unrouted (their lease did not
 *                       expire: nothing is delivered twice)
 * @param moreHandedBack whether this look read a full page of handed-back messages, some perhaps deleted meanwhile, so
 *                       more may wait
 */
public record Reclaimed(List<Delivery> deliveries, String cursor, int handedBack, boolean moreHandedBack) {

    /** The cursor of a look that starts at the beginning of the pending list. */
    public static final String FROM_START = "0-0";

    /** Whether this look reached the end of the pending list, so the next one starts over. */
    public boolean reachedEnd() {
        return FROM_START.equals(cursor);
    }

    /**
     * Whether the next fetch should look again at once: this look did not reach the end of the pending list, or read a
     * full page of handed-back messages, so more may wait.
     */
    public boolean leftMore() {
        return !reachedEnd() || moreHandedBack;
    }

    /** How many of the messages taken over were leased to a consumer that stopped answering: delivered again. */
    public int expired() {
        return deliveries.size() - handedBack;
    }
}
