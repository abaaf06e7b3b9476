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

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import org.redisson.api.stream.StreamMessageId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the leases of a consumer's in-flight messages alive: each call of {@link #extend} resets their idle time in
 * Redis, so a slow but healthy exchange is never handed to a second consumer. Called periodically, well within the
 * visibility timeout, from a thread every consumer of the connection shares: it never waits for Redis, so a server that
 * does not answer cannot delay the leases held on others.
 */
public final class LeaseKeeper {

    private static final Logger LOG = LoggerFactory.getLogger(LeaseKeeper.class);

    private final QueueShard queue;
    private final String consumer;
    private final Map<StreamMessageId, Delivery> inFlight = new ConcurrentHashMap<>();
    private final OutageLog outage;
    private final AtomicBoolean extending = new AtomicBoolean();

    public LeaseKeeper(QueueShard queue, String consumer) {
        this.queue = queue;
        this.consumer = consumer;
        this.outage = new OutageLog(LOG, "Lease extension on queue " + queue.name());
    }

    public void started(Delivery delivery) {
        inFlight.put(delivery.entryId(), delivery);
    }

    public void finished(Delivery delivery) {
        inFlight.remove(delivery.entryId());
    }

    public int size() {
        return inFlight.size();
    }

    /** Whether the entry with this id is one of the leases kept here: its exchange has not been settled. */
    public boolean keeps(StreamMessageId entryId) {
        return inFlight.containsKey(entryId);
    }

    /** Sends the extension of the current leases, unless the last one is still under way (Redis is slow or away). */
    public void extend() {
        if (!extending.compareAndSet(false, true)) {
            return;
        }
        CompletionStage<?> extension;
        try {
            extension = queue.group().extendLeases(consumer, inFlight.keySet());
        } catch (RuntimeException e) {
            extension = CompletableFuture.failedFuture(e);
        }
        extension.whenComplete((claimed, failure) -> {
            extending.set(false);
            if (failure == null) {
                outage.succeeded();
            } else {
                outage.failed(Futures.unwrap(failure));
            }
        });
    }
}
