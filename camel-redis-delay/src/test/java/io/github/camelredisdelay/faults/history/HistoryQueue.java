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

import java.time.Duration;

/**
 * The queue of one round of the history check and the options every endpoint of it shares: shards, the transfer batch,
 * and for consumers three deliveries at most, retries after 150 and 400 ms, a 1 s visibility timeout and a dead-letter
 * queue.
 */
public record HistoryQueue(String name, int shards, int transferBatchSize) {

    /** Deliveries of a version before it is dead-lettered. */
    public static final int MAX_DELIVERIES = 3;
    /** The leases of every consumer: short, so routes outlast them and leases are extended. */
    public static final Duration VISIBILITY_TIMEOUT = Duration.ofSeconds(1);
    private static final long[] RETRY_DELAYS = { 150, 400 };

    public String deadLetterQueue() {
        return name + ".dead";
    }

    /** The delay before the redelivery that follows failed delivery number {@code count}. */
    static long retryDelay(int count) {
        return RETRY_DELAYS[Math.min(count - 1, RETRY_DELAYS.length - 1)];
    }

    /** A producer endpoint of the queue with these options (e.g. {@code onDuplicate=replace}). */
    public String producerUri(String options) {
        return "redis-delay:" + name + "?" + shared() + "&" + options;
    }

    /** The options of a consumer of the queue: its own (type, threads, batch) and the shared ones. */
    public String consumerOptions(String own) {
        return own + "&" + receiverOptions();
    }

    /** The options every consumer of the queue shares, receivers ({@link TemplateReceivers}) included. */
    private String receiverOptions() {
        return shared() + "&maxDeliveries=" + MAX_DELIVERIES + "&retrySchedule=" + RETRY_DELAYS[0] + ","
               + RETRY_DELAYS[1] + "&visibilityTimeout=" + VISIBILITY_TIMEOUT.toMillis() + "&deadLetterQueue="
               + deadLetterQueue();
    }

    public String consumerUri(String own) {
        return "redis-delay:" + name + "?" + consumerOptions(own);
    }

    /** The endpoint a {@code ConsumerTemplate} receives the queue from. */
    String receiverUri() {
        return "redis-delay:" + name + "?" + receiverOptions();
    }

    public String deadLetterUri() {
        return "redis-delay:" + deadLetterQueue() + "?" + shared();
    }

    /** The endpoint that redrives the queue's dead letters back to it. */
    String redriveUri() {
        return producerUri("operation=redrive&deadLetterQueue=" + deadLetterQueue());
    }

    /** The stats operation's endpoint of the queue or of its dead-letter queue. */
    String statsUri(String queue) {
        return "redis-delay:" + queue + "?" + shared() + "&operation=stats";
    }

    private String shared() {
        return "shards=" + shards + "&transferBatchSize=" + transferBatchSize;
    }
}
