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

/**
 * What a {@code schedule} does when a message with the same id already exists on the queue. A re-delay (a schedule of
 * the same id onto the same queue from the exchange that is delivering that message) always replaces.
 */
public enum OnDuplicate {
    /** Keep the existing message and its due time; the schedule is idempotent. */
    keep,
    /**
     * Store the new body, headers and due time. A scheduled message is replaced; one that is already ready or in flight
     * is delivered as it was, and the new version is delivered at its own due time.
     */
    replace,
    /** Fail the exchange with a {@link DuplicateMessageException}. */
    fail
}
