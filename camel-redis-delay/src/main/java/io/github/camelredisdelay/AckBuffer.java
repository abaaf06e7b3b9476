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

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.github.camelredisdelay.internal.Delivery;

/**
 * Deliveries whose exchange succeeded, waiting to be acknowledged with the consumer's next read, so that one round trip
 * serves both. Their leases stay alive until they are acknowledged.
 */
final class AckBuffer {

    /** How long a finished message may wait for its acknowledgement to share a round trip with others. */
    private static final long LINGER_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private final Queue<Delivery> finished = new ConcurrentLinkedQueue<>();
    private final AtomicLong oldestNanos = new AtomicLong();
    private volatile boolean closed;
    /** No read comes soon (a polling consumer between polls); guarded like {@link #closed}. */
    private volatile boolean paused;

    /**
     * Puts a delivery in line for the next read's acknowledgements; false once the buffer is closed (the consumer
     * stopped reading) or while it is paused, when the caller acknowledges it itself.
     */
    boolean add(Delivery delivery) {
        if (refuses()) {
            return false;
        }
        // in line before its time is noted: a drain that clears the time in between then takes it along, where one
        // that ran between the two would have left it waiting with no time, never overdue
        finished.add(delivery);
        oldestNanos.compareAndSet(0, System.nanoTime());
        // closed or paused meanwhile: the last drain may have run before the add, so it is the caller's unless that
        // drain took it
        return !refuses() || !finished.remove(delivery);
    }

    private boolean refuses() {
        return closed || paused;
    }

    /** No more reads will drain it: {@link #add} refuses from now on; the caller drains what is left. */
    void close() {
        closed = true;
    }

    /** No read will drain it soon: {@link #add} refuses until {@link #resume}; the caller drains what is left. */
    void pause() {
        paused = true;
    }

    /** Reads drain it again. */
    void resume() {
        paused = false;
    }

    /** Takes everything waiting. */
    List<Delivery> drain() {
        oldestNanos.set(0);
        List<Delivery> drained = new ArrayList<>();
        for (Delivery delivery = finished.poll(); delivery != null; delivery = finished.poll()) {
            drained.add(delivery);
        }
        return drained;
    }

    /** Puts acknowledgements that could not be sent back in line for the next attempt. */
    void putBack(List<Delivery> deliveries) {
        if (!deliveries.isEmpty()) {
            finished.addAll(deliveries);
            oldestNanos.compareAndSet(0, System.nanoTime());
        }
    }

    /** Whether no acknowledgement is waiting. */
    boolean isEmpty() {
        return finished.isEmpty();
    }

    /** Whether the oldest waiting acknowledgement has lingered long enough to be sent on its own. */
    boolean isOverdue() {
        return waitedLongerThan(LINGER_NANOS);
    }

    /** Whether the oldest waiting acknowledgement has waited longer than {@code nanos}. */
    boolean waitedLongerThan(long nanos) {
        long oldest = oldestNanos.get();
        return oldest != 0 && System.nanoTime() - oldest > nanos;
    }
}
