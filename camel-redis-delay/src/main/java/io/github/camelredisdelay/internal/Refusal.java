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

/**
 * Why a consumer's settlement of a failed delivery did nothing to the message: it was neither put back on schedule nor
 * moved to the dead-letter queue.
 */
public enum Refusal {

    /**
     * The delivery is no longer leased to the consumer: another consumer took it over after missed lease extensions and
     * acts on it now, or it was settled meanwhile.
     */
    LEASE_LOST("its lease is no longer this consumer's (another consumer took it over, or it was settled meanwhile)"),

    /**
     * A newer version of the message was stored meanwhile (a replace, or a re-delay from this very delivery), which
     * keeps its own schedule; the failed delivery was only acknowledged.
     */
    SUPERSEDED("a newer version of it was stored, which keeps its own schedule"),

    /** A purge of the queue under way, which started after the message was scheduled, removed it. */
    PURGED("a purge of the queue under way removed it"),

    /**
     * The delivery is no longer leased to the consumer, Redis holds neither its stream entry nor the message, and the
     * consumer group never delivered that entry (see {@code gone} in ready-stream.lua): Redis lost it, and nothing
     * delivers it again. A consumer that took the lease over and settled it is {@link #LEASE_LOST}.
     */
    GONE("Redis holds neither its stream entry nor the message any more, nor a trace of its delivery: Redis lost it "
         + "(flushed, restored from an older snapshot, its keys deleted by hand), and it is not delivered again");

    private final String reason;

    Refusal(String reason) {
        this.reason = reason;
    }

    /** The reason, for a log line about the message ("not put back on schedule: " + reason). */
    public String reason() {
        return reason;
    }
}
