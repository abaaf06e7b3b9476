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
package io.github.camelredisdelay.sentinel;

import java.util.List;
import java.util.OptionalLong;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import io.github.camelredisdelay.RedisDelayConstants;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * The consumer route's processor: notes each delivery's message id and local time in this JVM's memory (Redis is what
 * fails here). The exchange completes, and the component acknowledges the message, right after the note.
 */
final class DeliveryRecorder implements Processor {

    /**
     * One delivery.
     *
     * @param atMillis     local time its exchange was processed
     * @param scheduledFor the due time Redis stored for it
     */
    record Delivery(String id, long atMillis, long scheduledFor) {

        /** How late it was processed, in ms. */
        long lateness() {
            return atMillis - scheduledFor;
        }
    }

    private final Queue<Delivery> deliveries = new ConcurrentLinkedQueue<>();

    @Override
    public void process(Exchange exchange) {
        long now = System.currentTimeMillis();
        deliveries.add(new Delivery(
                exchange.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID, String.class), now,
                exchange.getMessage().getHeader(RedisDelayConstants.SCHEDULED_FOR, Long.class)));
    }

    /** Every delivery so far, in order. */
    List<Delivery> deliveries() {
        return List.copyOf(deliveries);
    }

    int count() {
        return deliveries.size();
    }

    /** Local time of the first delivery processed at or after {@code millis}, if any. */
    OptionalLong firstAtOrAfter(long millis) {
        return deliveries.stream().mapToLong(Delivery::atMillis).filter(at -> at >= millis).min();
    }
}
