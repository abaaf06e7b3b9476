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

import io.github.camelredisdelay.internal.LogText;

/**
 * A {@code schedule} with {@code onDuplicate=fail} met a message with the same id on the queue.
 */
public class DuplicateMessageException extends IllegalStateException {

    private final String queue;
    private final String messageId;
    private final long existingDueAt;

    public DuplicateMessageException(String queue, String messageId, long existingDueAt) {
        super("Queue " + queue + " already has a message with id " + LogText.of(messageId)
              + (existingDueAt >= 0 ? " due at " + existingDueAt + " (epoch ms)" : " that is ready or in flight")
              + "; onDuplicate=fail rejects scheduling it again (use keep or replace to allow it)");
        this.queue = queue;
        this.messageId = messageId;
        this.existingDueAt = existingDueAt;
    }

    /** The queue that refused the message. */
    public String getQueue() {
        return queue;
    }

    /** The id already in use on the queue. */
    public String getMessageId() {
        return messageId;
    }

    /** The due time of the existing message in epoch ms, or -1 when it is ready or in flight. */
    public long getExistingDueAt() {
        return existingDueAt;
    }
}
