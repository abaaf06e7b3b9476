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
 * Told what the wake channel of one queue (or shard) announces; see {@link WakeChannels}. Called on Redisson's threads:
 * implementations only arm timers or signal waiting threads.
 */
public interface WakeListener {

    /** A schedule or retry made a due time the earliest of the queue, {@code delayMs} from now. */
    default void earliestDueIn(long delayMs) {
    }

    /** Messages went to the ready stream (a transfer moved some, or a schedule was due at once). */
    default void messagesReady() {
    }

    /**
     * A stopping or suspended consumer handed messages back: their leases ended. Told to every listener of the channel
     * before {@link #messagesReady}, so that a consumer knows to look for expired leases before its readers wake.
     */
    default void messagesHandedBack() {
    }

    /** The subscription was made or made again after a reconnect: announcements may have been missed. */
    void subscribed();
}
