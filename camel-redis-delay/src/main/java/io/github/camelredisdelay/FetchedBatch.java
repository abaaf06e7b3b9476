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

import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

import io.github.camelredisdelay.internal.Delivery;

/**
 * The messages of one read, which a consumer thread routes one after another. Whoever hands back the rest (a stop, or
 * the lease timer once the rest waited a visibility timeout behind a slow exchange: {@link Deliverer#inTurn}) takes it
 * from the thread first, so a message is either routed here or handed back, never both; the consumer hears at once how
 * many were taken, so that it no longer counts them as pending.
 */
final class FetchedBatch {

    private final List<Delivery> deliveries;
    /** Told how many messages {@link #takeRest} took. */
    private final IntConsumer restTaken;
    /** Told once every message was taken, routed or handed back: nothing is left to wait for. */
    private final Consumer<FetchedBatch> allTaken;
    private final long fetchedAtNanos = System.nanoTime();
    // guarded by this
    private int next;

    FetchedBatch(List<Delivery> deliveries, IntConsumer restTaken, Consumer<FetchedBatch> allTaken) {
        this.deliveries = deliveries;
        this.restTaken = restTaken;
        this.allTaken = allTaken;
    }

    /** The next message to route, or {@code null} when none is left: all were taken, or the rest was. */
    synchronized Delivery next() {
        if (next == deliveries.size()) {
            return null;
        }
        Delivery delivery = deliveries.get(next++);
        if (next == deliveries.size()) {
            allTaken.accept(this);
        }
        return delivery;
    }

    /** Takes the messages not taken yet, to hand them back, and says how many. */
    synchronized List<Delivery> takeRest() {
        List<Delivery> rest = List.copyOf(deliveries.subList(next, deliveries.size()));
        next = deliveries.size();
        restTaken.accept(rest.size());
        allTaken.accept(this);
        return rest;
    }

    /** Whether it was read before {@code nanos} ({@link System#nanoTime}). */
    boolean fetchedBefore(long nanos) {
        return fetchedAtNanos - nanos < 0;
    }
}
