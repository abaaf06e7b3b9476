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
package io.github.camelredisdelay.sentinel;

import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import io.github.camelredisdelay.RedisDelayConstants;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;

/**
 * Schedules messages {@code m-0}, {@code m-1}, … at a steady rate on a thread of its own, each exactly once: a send
 * whose exchange fails is noted as failed and not tried again, so every outcome belongs to one message. A slow send
 * delays the next one but causes no burst to catch up.
 */
final class SteadyProducer implements AutoCloseable {

    /**
     * How one send ended.
     *
     * @param acknowledged whether the producer returned without an exception (the schedule is stored)
     * @param atMillis     local time the send returned
     * @param tookMillis   how long the send took
     * @param error        the root cause of a failed send, else null
     */
    record Outcome(String id, boolean acknowledged, long atMillis, long tookMillis, String error) {
    }

    private static final long STOP_TIMEOUT_MILLIS = 60_000;

    private final ProducerTemplate template;
    private final String uri;
    private final long periodNanos;
    private final int maxMessages;
    private final LongSupplier delayMillis;
    private final Queue<Outcome> outcomes = new ConcurrentLinkedQueue<>();
    private final Thread sender = new Thread(this::sendAll, "steady-producer");
    private volatile boolean stopping;

    /**
     * @param maxMessages sends at most this many, then stops by itself
     * @param delayMillis the delay of each message
     */
    SteadyProducer(ProducerTemplate template, String uri, int ratePerSecond, int maxMessages, LongSupplier delayMillis) {
        this.template = template;
        this.uri = uri;
        this.periodNanos = TimeUnit.SECONDS.toNanos(1) / ratePerSecond;
        this.maxMessages = maxMessages;
        this.delayMillis = delayMillis;
    }

    SteadyProducer start() {
        sender.start();
        return this;
    }

    private void sendAll() {
        long dueNanos = System.nanoTime();
        try {
            for (int n = 0; n < maxMessages && !stopping; n++) {
                TimeUnit.NANOSECONDS.sleep(dueNanos - System.nanoTime());
                dueNanos = Math.max(dueNanos + periodNanos, System.nanoTime());
                outcomes.add(send("m-" + n, delayMillis.getAsLong()));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Outcome send(String id, long delay) {
        long sentAt = System.currentTimeMillis();
        Exchange exchange = template.send(uri, e -> {
            e.getMessage().setBody("body of " + id);
            e.getMessage().setHeaders(Map.of(RedisDelayConstants.MESSAGE_ID, id, RedisDelayConstants.DELAY, delay));
        });
        Exception error = exchange.getException();
        long now = System.currentTimeMillis();
        return new Outcome(id, error == null, now, now - sentAt, error == null ? null : rootOf(error));
    }

    private static String rootOf(Throwable error) {
        Throwable root = error;
        for (int depth = 0; root.getCause() != null && depth < 10; depth++) {
            root = root.getCause();
        }
        return root.toString();
    }

    /**
     * Stops sending and waits (at most a minute) for a send in progress.
     *
     * @throws IllegalStateException when the send in progress does not end in time
     */
    void stop() throws InterruptedException {
        stopping = true;
        sender.join(STOP_TIMEOUT_MILLIS);
        if (sender.isAlive()) {
            throw new IllegalStateException("The producer's send did not end within " + STOP_TIMEOUT_MILLIS + " ms");
        }
    }

    /** Every send so far, in order. */
    List<Outcome> outcomes() {
        return List.copyOf(outcomes);
    }

    /** Number of sends acknowledged at or after a local time. */
    long acknowledgedSince(long millis) {
        return outcomes.stream().filter(o -> o.acknowledged() && o.atMillis() >= millis).count();
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
