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

import io.github.camelredisdelay.OnDuplicate;

/**
 * A message to schedule.
 *
 * @param id          the message id
 * @param envelope    the encoded message ({@link EnvelopeCodec})
 * @param due         when it becomes due
 * @param onDuplicate what to do when the id exists
 * @param sentOnce    whether its script call must reach Redis at most once ({@link ScriptCalls#callOnce}): a repeat
 *                    would find the message the first run stored and answer that the id is taken, where the caller
 *                    cannot tell that message for its own (an id the application gave, unlike a generated one)
 */
public record ScheduleRequest(String id, byte[] envelope, DueTime due, OnDuplicate onDuplicate, boolean sentOnce) {

    /** A request whose call Redisson may send again: the caller takes a message found under its id for its own. */
    public ScheduleRequest(String id, byte[] envelope, DueTime due, OnDuplicate onDuplicate) {
        this(id, envelope, due, onDuplicate, false);
    }
}
