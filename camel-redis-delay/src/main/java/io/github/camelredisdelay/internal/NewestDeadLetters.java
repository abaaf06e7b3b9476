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

import java.util.List;

/**
 * A queue's newest dead letters and what they were found among, so that whoever shows them can say how much of the
 * dead-letter queue was looked at.
 *
 * @param listed          the queue's own dead letters found, newest first
 * @param lookedAt        how many of the newest dead letters of the dead-letter queue (every queue's) were read
 * @param held            how many dead letters the dead-letter queue holds (read apart: at least {@code lookedAt})
 * @param deadLetterQueue the dead-letter queue's name
 */
public record NewestDeadLetters(List<InspectedMessage> listed, int lookedAt, long held, String deadLetterQueue) {

    /** What {@link #listed} was found among, e.g. {@code newest 100 of 101 dead letters in orders.dead}. */
    public String searched() {
        return "newest " + lookedAt + " of " + held + " dead letters in " + deadLetterQueue;
    }
}
