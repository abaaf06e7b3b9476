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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import io.github.camelredisdelay.internal.Delivery;
import io.github.camelredisdelay.internal.Futures;
import io.github.camelredisdelay.internal.QueueShard;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The acknowledgements of one {@link Deliverer}: the finished messages a route's consumer sends with its next read
 * ({@link AckBuffer}; a receiver's are acknowledged each at once by its {@link Settlement}), sent alone when they
 * waited too long, a poll ended or the consumer stops. What Redis refuses or does not answer stays in line and leased,
 * for the next attempt.
 */
final class Acknowledgements {

    private static final Logger LOG = LoggerFactory.getLogger(Acknowledgements.class);

    private final QueueShard queue;
    /** Where finished messages wait for the next read; {@code null} for a receiver's deliverer. */
    private final AckBuffer buffer;
    private final Settlement settlement;
    /** Redis refused the last acknowledgement and answered the read beside it: the next fetch only acknowledges. */
    private volatile boolean refused;

    Acknowledgements(QueueShard queue, AckBuffer buffer, Settlement settlement) {
        this.queue = queue;
        this.buffer = buffer;
        this.settlement = settlement;
    }

    /** Takes what waits to be acknowledged. */
    List<Delivery> drain() {
        return buffer != null ? buffer.drain() : List.of();
    }

    /** Puts acknowledgements that were not sent back in line for the next attempt. */
    void putBack(List<Delivery> finished) {
        if (buffer != null) {
            buffer.putBack(finished);
        }
    }

    /** Acknowledges {@code finished} now, waiting for Redis. */
    void send(List<Delivery> finished) {
        if (!finished.isEmpty()) {
            queue.group().ack(finished);
            sent(finished);
        }
    }

    /** Notes that Redis acknowledged {@code finished} (alone or beside a read): it takes acknowledgements again. */
    void sent(List<Delivery> finished) {
        refused = false;
        settlement.acknowledged(finished);
    }

    /**
     * Notes that Redis did not acknowledge {@code finished}: back in line, leased, for the next read or flush.
     */
    void failed(List<Delivery> finished, Throwable failure) {
        putBack(finished);
        LOG.warn("Could not acknowledge {} finished messages of queue {}; trying again with the next read (once the "
                 + "consumer has stopped, with each lease extension, their leases kept until then): {}",
                finished.size(), queue.name(), failure.toString());
    }

    /**
     * Redis refused an acknowledgement but answered the read beside it: the next fetch acknowledges alone, as what a
     * read brought could not be acknowledged either.
     */
    void refusedBesideRead(List<Delivery> finished, Throwable failure) {
        refused = true;
        failed(finished, failure);
    }

    /** Whether the last acknowledgement was refused beside a read, and none went through since. */
    boolean isRefused() {
        return refused;
    }

    /**
     * Acknowledges what finished since the last fetch. What fails stays queued and leased, so the next fetch or flush
     * acknowledges it; once the consumer stops, no one extends its lease and it is delivered again.
     */
    void flush() {
        List<Delivery> finished = drain();
        try {
            send(finished);
        } catch (RuntimeException e) {
            failed(finished, e);
        }
    }

    /**
     * Acknowledges the finished messages when the oldest has waited longer than a read's round trip should take for
     * them: after a slow exchange, or while the consumer does not read (suspended).
     */
    void flushOverdue() {
        if (buffer != null && buffer.isOverdue()) {
            flush();
        }
    }

    /** Whether the oldest finished message has waited longer than {@code nanos} for its acknowledgement. */
    boolean waitedLongerThan(long nanos) {
        return buffer != null && buffer.waitedLongerThan(nanos);
    }

    /** A polling consumer's poll begins: finished messages wait for its reads again. */
    void pollBegins() {
        if (buffer != null) {
            buffer.resume();
        }
    }

    /**
     * A polling consumer's poll ended: what finished is acknowledged now, and until the next poll each message as it
     * finishes (a copy handed to a {@code seda:} route, say), rather than a {@code pollInterval} later.
     */
    void pollEnded() {
        if (buffer != null) {
            buffer.pause();
        }
        flush();
    }

    /** No more reads will carry acknowledgements: each finished message is acknowledged at once from now on. */
    void close() {
        if (buffer != null) {
            buffer.close();
        }
    }

    /** Whether acknowledgements wait in line. */
    boolean anyWaiting() {
        return buffer != null && !buffer.isEmpty();
    }

    /**
     * Acknowledges what finished without waiting; what fails stays queued and leased, for the next attempt. The stage
     * completes normally either way.
     */
    CompletionStage<?> sendAsync(List<Delivery> finished) {
        if (finished.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        CompletionStage<Long> sending;
        try {
            sending = queue.group().ackAsync(finished);
        } catch (RuntimeException e) {
            sending = CompletableFuture.failedFuture(e);
        }
        return sending.handle((removed, failure) -> {
            if (failure == null) {
                sent(finished);
            } else {
                failed(finished, Futures.unwrap(failure));
            }
            return null;
        });
    }
}
