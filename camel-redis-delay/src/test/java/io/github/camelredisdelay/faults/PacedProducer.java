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
package io.github.camelredisdelay.faults;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.github.camelredisdelay.RedisDelayConstants;
import org.apache.camel.ProducerTemplate;

/**
 * Sends messages with ids {@code <prefix>-0}, {@code <prefix>-1}, … at a steady rate and a random delay, on a thread of
 * its own. A send that fails is tried again with the same id (so a send whose reply was lost but which was stored is
 * not stored twice) until it is acknowledged; only acknowledged sends count as sent.
 */
public final class PacedProducer implements AutoCloseable {

    private static final long TICK_MILLIS = 10;

    private final ProducerTemplate template;
    private final String uri;
    private final String idPrefix;
    private final int ratePerSecond;
    private final int maxMessages;
    private final long maxDelayMillis;
    private final ScheduledExecutorService ticker;
    private final Map<String, Long> acknowledgedAt = new ConcurrentHashMap<>();
    private final AtomicInteger failedAttempts = new AtomicInteger();
    private final AtomicLong longestFailureMillis = new AtomicLong();
    private final List<String> failureSamples = Collections.synchronizedList(new ArrayList<>());

    private long startNanos;
    private volatile int next;
    private volatile long lastFailureAt;

    /**
     * @param maxDelayMillis each message gets a delay between 0 and this
     */
    public PacedProducer(ProducerTemplate template, String uri, String idPrefix, int ratePerSecond, int maxMessages,
                         long maxDelayMillis) {
        this.template = template;
        this.uri = uri;
        this.idPrefix = idPrefix;
        this.ratePerSecond = ratePerSecond;
        this.maxMessages = maxMessages;
        this.maxDelayMillis = maxDelayMillis;
        this.ticker = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "paced-producer-" + idPrefix));
    }

    public PacedProducer start() {
        startNanos = System.nanoTime();
        ticker.scheduleWithFixedDelay(this::tick, 0, TICK_MILLIS, TimeUnit.MILLISECONDS);
        return this;
    }

    /** Sends what the rate allows by now; a failed send ends the tick and is tried again at the next one. */
    private void tick() {
        long elapsedNanos = System.nanoTime() - startNanos;
        long target = Math.min(maxMessages, elapsedNanos * ratePerSecond / 1_000_000_000L);
        while (next < target && !ticker.isShutdown()) {
            String id = idPrefix + "-" + next;
            long started = System.nanoTime();
            try {
                template.sendBodyAndHeaders(uri, "body of " + id, Map.of(RedisDelayConstants.MESSAGE_ID, id,
                        RedisDelayConstants.DELAY, ThreadLocalRandom.current().nextLong(maxDelayMillis + 1)));
                acknowledgedAt.put(id, System.currentTimeMillis());
                next++;
            } catch (RuntimeException e) {
                long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
                failedAttempts.incrementAndGet();
                longestFailureMillis.accumulateAndGet(took, Math::max);
                lastFailureAt = System.currentTimeMillis();
                if (failureSamples.size() < 3) {
                    failureSamples.add(took + " ms: " + describe(e));
                }
                return;
            }
        }
    }

    /** The exception below Camel's wrapper and its root cause, e.g. Redisson's error and the socket error under it. */
    private static String describe(Throwable e) {
        Throwable error = e.getCause() != null ? e.getCause() : e;
        Throwable root = error;
        for (int depth = 0; root.getCause() != null && depth < 10; depth++) {
            root = root.getCause();
        }
        return root == error ? error.toString() : error + " caused by " + root;
    }

    /** Stops sending and waits for a send in progress. */
    public void stop() {
        ticker.shutdown();
        try {
            if (!ticker.awaitTermination(60, TimeUnit.SECONDS)) {
                ticker.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ticker.shutdownNow();
        }
    }

    /** Whether all {@code maxMessages} are acknowledged. */
    public boolean isDone() {
        return acknowledgedAt.size() >= maxMessages;
    }

    /** Ids of the acknowledged sends, with the local time each was acknowledged at. */
    public Map<String, Long> acknowledged() {
        return Map.copyOf(acknowledgedAt);
    }

    public int acknowledgedCount() {
        return acknowledgedAt.size();
    }

    public int failedAttempts() {
        return failedAttempts.get();
    }

    /** Local time of the last failed send, 0 if none failed. */
    public long lastFailureAt() {
        return lastFailureAt;
    }

    /** How the failures looked, for the report: the longest one's duration and the first few errors. */
    public String failureSummary() {
        return "failedSends=" + failedAttempts.get() + " longestFailedSend=" + longestFailureMillis.get() + "ms"
               + (failureSamples.isEmpty() ? "" : " e.g. [" + String.join("; ", failureSamples) + "]");
    }

    @Override
    public void close() {
        stop();
    }
}
