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

/**
 * A {@code scheduleBatch} whose script call failed after earlier calls of the batch (another shard's, or the first
 * 1,000 messages or 1 MB) stored their messages: those are stored and will be delivered. The cause is what the call
 * failed with. Camel's redelivery of the exchange stores the rest under the same ids, the stored ones not again.
 */
public class PartlyStoredBatchException extends IllegalStateException {

    /** Most ids the message names; {@link #getStoredIds} has them all. */
    private static final int NAMED_IDS = 20;

    private final String queue;
    private final List<String> storedIds;
    private final int batchSize;

    /**
     * @param storedIds the ids of the messages the calls before the failed one stored
     * @param batchSize how many messages the batch had
     * @param cause     what the failed call failed with
     */
    public PartlyStoredBatchException(String queue, List<String> storedIds, int batchSize, Throwable cause) {
        super("scheduleBatch on queue " + queue + " stored " + storedIds.size() + " of " + batchSize
              + " messages, under ids " + named(storedIds) + ", before a call failed: " + cause
              + ". The other " + (batchSize - storedIds.size()) + " are not stored, unless the failed call ran without "
              + "an answer in time or reached too few replicas; Camel's redelivery of the exchange stores them under "
              + "the same ids, the stored ones not again",
              cause);
        this.queue = queue;
        this.storedIds = List.copyOf(storedIds);
        this.batchSize = batchSize;
    }

    private static String named(List<String> ids) {
        return ids.size() <= NAMED_IDS
                ? ids.toString()
                : ids.subList(0, NAMED_IDS) + " and " + (ids.size() - NAMED_IDS) + " more";
    }

    /** The queue the batch was scheduled on. */
    public String getQueue() {
        return queue;
    }

    /** The ids of the batch's messages that are stored, in the batch's order of calls. */
    public List<String> getStoredIds() {
        return storedIds;
    }

    /** How many messages the batch had. */
    public int getBatchSize() {
        return batchSize;
    }
}
