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
 * Values shared with the Lua scripts, under the names {@code wire.lua} gives them (WireTest checks that both agree):
 * the record's head, the fields of a ready-stream entry, script statuses and the wake channel's ready notice.
 */
public final class Wire {

    /** Bytes of the record's head: scheduled-at, due time, generation. */
    public static final int SCHEDULED_AT_BYTES = 6;
    public static final int DUE_AT_BYTES = 7;
    public static final int GENERATION_BYTES = 2;
    public static final int RECORD_HEAD_BYTES = 15;

    /** Fields of a ready-stream entry: message id, record, failure note. */
    public static final String FIELD_ID = "i";
    public static final String FIELD_RECORD = "r";
    public static final String FIELD_FAILURE = "f";

    /** Statuses of {@code schedule.lua} and {@code reschedule.lua}. */
    public static final int STATUS_KEPT = 0;
    public static final int STATUS_SCHEDULED = 1;
    public static final int STATUS_DUPLICATE = 2;
    public static final int STATUS_DUE_OVERFLOW = 3;
    public static final int STATUS_REPLACED = 4;

    /** Statuses of {@code retry.lua}. */
    public static final int RETRY_NOT_PENDING = 0;
    public static final int RETRY_SCHEDULED = 1;
    public static final int RETRY_SUPERSEDED = 2;
    public static final int RETRY_PURGED = 3;
    public static final int RETRY_GONE = 4;

    /** Statuses of {@code discard.lua}. */
    public static final int DISCARD_REMOVED = 0;
    public static final int DISCARD_IN_FLIGHT = 1;
    public static final int DISCARD_GONE = 2;

    /** The wake channel's notice that messages went to the ready stream. */
    public static final String WAKE_READY = "ready";
    /** The wake channel's notice that a stopping or suspended consumer handed messages back ({@code hand-back.lua}). */
    public static final String WAKE_HANDED_BACK = "handed-back";

    private Wire() {
    }
}
