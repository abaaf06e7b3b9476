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
package io.github.camelredisdelay.faults.history;

/** A message the dead-letter queue's consumer got, with the headers that tell where it came from. */
public record DeadLetter(String id, String body, String originalQueue, String lastError, int count, long time) {

    /**
     * Whether it is held under that message's id, or under {@code <id>#<stream entry>}: a later dead letter of the id
     * while an earlier one waits in the dead-letter queue.
     */
    boolean isOf(String messageId) {
        return messageId.equals(id) || id != null && id.startsWith(messageId + "#");
    }
}
