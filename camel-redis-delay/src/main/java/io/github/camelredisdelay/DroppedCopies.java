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
package io.github.camelredisdelay;

import java.lang.ref.PhantomReference;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.camel.Exchange;

/**
 * Notices copies of delivered exchanges that were dropped before they completed. Camel hands a delivered exchange's
 * completion over to a copy (a {@code seda:} route's, say), which keeps the message's lease alive until it completes; a
 * copy that is dropped instead (a full {@code seda:} queue with {@code discardWhenFull}) never completes, and its
 * message would stay leased as long as the consumer runs. Once the garbage collector finds such a copy unreachable,
 * nothing can complete it any more: its delivery is abandoned, so its lease expires and it is delivered again.
 */
final class DroppedCopies {

    private final ReferenceQueue<Exchange> unreachable = new ReferenceQueue<>();
    private final Map<Reference<Exchange>, DeliveryCompletion> watched = new ConcurrentHashMap<>();

    /**
     * Watches a copy that took {@code completion} over.
     *
     * @return the handle to {@link #forget} it by
     */
    Reference<Exchange> watch(Exchange copy, DeliveryCompletion completion) {
        Reference<Exchange> handle = new PhantomReference<>(copy, unreachable);
        watched.put(handle, completion);
        return handle;
    }

    /** Stops watching a copy: it completed, or handed the completion on to a copy of its own. */
    void forget(Reference<Exchange> handle) {
        watched.remove(handle);
    }

    /** Abandons the deliveries whose copies became unreachable while still watched. */
    void abandonDropped() {
        for (Reference<? extends Exchange> handle = unreachable.poll(); handle != null; handle = unreachable.poll()) {
            DeliveryCompletion completion = watched.remove(handle);
            if (completion != null) {
                completion.copyDropped();
            }
        }
    }
}
