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
 * A write of a queue with {@code syncReplicas} did not reach that many replicas (or, with {@code syncAof}, their
 * append-only files) within {@code syncTimeout}. The write is applied on the master and may be lost by a failover; for
 * a schedule, retry with the same message id so the retry is idempotent.
 */
public class NotReplicatedException extends IllegalStateException {

    private final String queue;
    private final String hashTag;
    private final int required;
    private final int reached;
    private final String shortfall;

    /**
     * @param queue           the queue written
     * @param operation       what was written, e.g. {@code Schedule of message m-1}
     * @param required        replicas the write had to reach ({@code syncReplicas})
     * @param reached         replicas it reached within the timeout
     * @param timeoutMs       the timeout ({@code syncTimeout})
     * @param appendOnlyFiles whether the write waited for the replicas' append-only files ({@code syncAof}): a replica
     *                        without one never counts, however up to date it is
     */
    public NotReplicatedException(String queue, String operation, int required, int reached, long timeoutMs,
                                  boolean appendOnlyFiles) {
        this(queue, null, operation, required, reached, timeoutMs, appendOnlyFiles);
    }

    /**
     * A write of one shard of a queue with {@code shards} above 1, which in a cluster has a master of its own: the
     * message names its hash tag, whose slot ({@code CLUSTER KEYSLOT}) tells which master fell short.
     *
     * @param hashTag the shard's hash tag, {@code null} for a queue of one shard
     * @see           #NotReplicatedException(String, String, int, int, long, boolean)
     */
    public NotReplicatedException(String queue, String hashTag, String operation, int required, int reached,
                                  long timeoutMs, boolean appendOnlyFiles) {
        this(queue, hashTag, operation, required, reached, shortfall(required, reached, timeoutMs, appendOnlyFiles));
    }

    private NotReplicatedException(String queue, String hashTag, String operation, int required, int reached,
                                   String shortfall) {
        super(LogText.of(operation) + " on queue " + queue + (hashTag == null ? "" : " (hash tag {" + hashTag + "})") + " "
              + shortfall + "; it is applied on the master but may be lost by a failover");
        this.queue = queue;
        this.hashTag = hashTag;
        this.required = required;
        this.reached = reached;
        this.shortfall = shortfall;
    }

    private static String shortfall(int required, int reached, long timeoutMs, boolean appendOnlyFiles) {
        return "reached " + reached + " of " + required + " required replicas"
               + (appendOnlyFiles ? "' append-only files" : "") + " within " + timeoutMs + " ms ("
               + (appendOnlyFiles
                       ? "syncReplicas / syncAof / syncTimeout: a replica without appendonly yes never counts"
                       : "syncReplicas / syncTimeout")
               + ")";
    }

    /** The queue whose write did not reach enough replicas. */
    public String getQueue() {
        return queue;
    }

    /** The hash tag of the shard written, {@code null} for a queue of one shard. */
    public String getHashTag() {
        return hashTag;
    }

    /** Replicas the write had to reach. */
    public int getRequired() {
        return required;
    }

    /** Replicas it reached within the timeout. */
    public int getReached() {
        return reached;
    }

    /**
     * The part of the message that says what the write reached within {@code syncTimeout} (with {@code syncAof}, that a
     * replica without an append-only file never counts): "reached 0 of 1 required replicas within 500 ms (...)", which
     * the readiness check shows too.
     */
    String shortfall() {
        return shortfall;
    }
}
