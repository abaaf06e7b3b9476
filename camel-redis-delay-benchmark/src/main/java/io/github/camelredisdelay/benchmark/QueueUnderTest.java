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
package io.github.camelredisdelay.benchmark;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.IntFunction;

/**
 * One side of the comparison: a delay queue on the benchmark's Redis, used the way its users use it. Every scenario
 * drives both sides through this interface only, so they run the very same procedure.
 */
interface QueueUnderTest extends AutoCloseable {

    /** Stores one message, returning once the queue has it. */
    void schedule(String body, Due due);

    /**
     * Starts storing one message without waiting: ours {@code ProducerTemplate.asyncSend}, theirs {@code offerAsync}.
     *
     * @return completes once the queue has the message
     */
    CompletionStage<?> scheduleAsync(String body, Due due);

    /**
     * Stores messages with one due time by this side's batch means, returning once the queue has them all: ours
     * {@code operation=scheduleBatch} (one exchange, one script call), theirs one pipelined {@code offerAsync} each.
     */
    void scheduleAll(List<String> bodies, Due due);

    /**
     * Stores {@code count} messages by this side's fastest means, for setting up backlogs; not a measurement.
     *
     * @return how many were stored, how fast
     */
    Load preload(int count, IntFunction<String> body, IntFunction<Due> due, Duration bound);

    /** Starts {@code threads} competing consumers that hand every message to {@code sink}. */
    void startConsumers(int threads, MessageSink sink);

    /** Stops the consumers and waits (bounded) for them to finish. */
    void stopConsumers();

    /** Messages that are due and transferred but not yet consumed. */
    long readyCount();

    @Override
    void close();

    /** The outcome of {@link #preload}. */
    record Load(int stored, double perSecond) {
    }
}
