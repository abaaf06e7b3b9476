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
 * What happens to the messages of one queue in this CamelContext, told as it happens, for metrics. Every method does
 * nothing unless overridden; {@link #NONE} is the listener when no metrics are bound.
 */
public interface QueueEvents {

    /** Listens to nothing. */
    QueueEvents NONE = new QueueEvents() {
    };

    /** Messages were stored by a schedule (or batch schedule) of this queue. */
    default void scheduled(int messages) {
    }

    /** A message went to the route, {@code latenessMs} after its due time (Redis clock). */
    default void delivered(long latenessMs) {
    }

    /** A failed delivery was put back on schedule for another one. */
    default void retried() {
    }

    /** A message was moved to the dead-letter queue. */
    default void deadLettered() {
    }

    /** Leases of a consumer that stopped answering were taken over. */
    default void reclaimed(int messages) {
    }

    /** A scheduled message was cancelled. */
    default void cancelled() {
    }

    /** The queue's last endpoint stopped: the listener is no longer used. */
    default void close() {
    }
}
