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

import io.github.camelredisdelay.DuplicateMessageException;

/**
 * The outcome of a schedule or reschedule.
 *
 * @param status what happened
 * @param dueAt  the stored due time (epoch ms, Redis clock), or -1 when the message is already ready or in flight (or
 *               its due time overflowed)
 * @param now    Redis' time when the script ran
 */
public record ScheduleResult(Status status, long dueAt, long now) {

    /** What a schedule or reschedule did, with the status code its script replies ({@link Wire}). */
    public enum Status {
        /** Stored with the due time. */
        SCHEDULED(Wire.STATUS_SCHEDULED),
        /** Stored with the due time in place of an existing message with the id ({@code onDuplicate=replace}). */
        REPLACED(Wire.STATUS_REPLACED),
        /** Nothing changed: an existing message with the id was kept, or a reschedule found no scheduled message. */
        UNCHANGED(Wire.STATUS_KEPT),
        /** The id exists and {@code onDuplicate} is {@code fail}; nothing changed. */
        DUPLICATE(Wire.STATUS_DUPLICATE),
        /** The due time is beyond the largest one Redis' scripts hold exactly (2^53-1 ms); nothing changed. */
        DUE_OVERFLOW(Wire.STATUS_DUE_OVERFLOW);

        private final int code;

        Status(int code) {
            this.code = code;
        }

        /**
         * @throws IllegalStateException for a code no script replies
         */
        static Status ofCode(long code) {
            for (Status status : values()) {
                if (status.code == code) {
                    return status;
                }
            }
            throw new IllegalStateException("Unexpected schedule status from Redis: " + code);
        }
    }

    /** {@code true} when the message was stored with {@link #dueAt}, in place of another or not. */
    public boolean scheduled() {
        return status == Status.SCHEDULED || status == Status.REPLACED;
    }

    /** {@code true} when the message was stored in place of an existing message with its id. */
    public boolean replaced() {
        return status == Status.REPLACED;
    }

    /**
     * This result, unless it is a failure for the message {@code id} of {@code queue}, asked to be due {@code due}.
     *
     * @throws DuplicateMessageException for {@link Status#DUPLICATE}
     * @throws IllegalArgumentException  for {@link Status#DUE_OVERFLOW}
     */
    public ScheduleResult orThrow(String queue, String id, DueTime due) {
        return switch (status) {
            case DUPLICATE -> throw new DuplicateMessageException(queue, id, dueAt);
            case DUE_OVERFLOW -> throw new IllegalArgumentException(
                    "The due time of message " + LogText.of(id) + " on queue " + queue
                                                                    + " is beyond the largest supported time (2^53-1 ms after 1970): "
                                                                    + asked(due));
            default -> this;
        };
    }

    private static String asked(DueTime due) {
        return due.absolute() ? "due at " + due.millis() : "a delay of " + due.millis() + " ms from Redis' now";
    }
}
