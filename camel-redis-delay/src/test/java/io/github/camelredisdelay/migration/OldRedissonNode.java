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
package io.github.camelredisdelay.migration;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;

import io.github.camelredisdelay.test.RedisServerExtension;
import org.redisson.Redisson;
import org.redisson.api.RBlockingQueue;
import org.redisson.api.RDelayedQueue;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

/**
 * A node of the application before the switch: its own Redisson client with an {@code RDelayedQueue} (whose transfer
 * task runs in this client), an optional producer offering at a steady rate and an optional consumer taking from the
 * destination list. Values are {@code "<name>:<due time>"}, the due time as this node computed it.
 */
public final class OldRedissonNode implements AutoCloseable {

    private static final long REPLY_TIMEOUT_SECONDS = 60;

    private final RedissonClient client;
    private final RBlockingQueue<String> destination;
    private final RDelayedQueue<String> delayed;
    private final ScheduledExecutorService threads = Executors.newScheduledThreadPool(2);
    private final List<String> taken = new CopyOnWriteArrayList<>();
    private final List<String> offered = new CopyOnWriteArrayList<>();
    private volatile boolean consuming;
    private Future<?> consumer;
    private ScheduledFuture<?> producing;

    public OldRedissonNode(String legacyName) {
        this(RedisServerExtension.redisUrl(), null, null, legacyName);
    }

    /**
     * A node of a server other than the test harness', logging in as {@code username} (an ACL user) unless that is
     * null.
     */
    @SuppressWarnings("deprecation")
    public OldRedissonNode(String address, String username, String password, String legacyName) {
        Config config = new Config();
        config.setCodec(StringCodec.INSTANCE);
        config.useSingleServer().setAddress(address).setUsername(username).setPassword(password);
        client = Redisson.create(config);
        destination = client.getBlockingQueue(legacyName);
        delayed = client.getDelayedQueue(destination);
    }

    /** Offers one message due in {@code delayMs}; returns its value. */
    public String offer(String name, long delayMs) {
        String value = name + ":" + (System.currentTimeMillis() + delayMs);
        delayed.offer(value, delayMs, TimeUnit.MILLISECONDS);
        offered.add(value);
        return value;
    }

    /**
     * Gives the RDelayedQueue's keys a time to live ({@code RDelayedQueue.expire}), as an application does that keeps
     * them from outliving it by calling it after each offer.
     */
    public void expire(Duration timeToLive) {
        delayed.expire(timeToLive);
    }

    /**
     * Offers {@code count} values {@code valueOf(i)}, the i-th due {@code delayMs + i} ms from its offer, pipelined: at
     * most {@code inFlight} offers wait for their reply. Fast enough for a million; the values are not recorded in
     * {@link #offered()}.
     *
     * @return how long it took
     */
    public Duration preload(int count, IntFunction<String> valueOf, long delayMs, int inFlight)
            throws InterruptedException {
        Semaphore window = new Semaphore(inFlight);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        long start = System.nanoTime();
        for (int i = 0; i < count && failure.get() == null; i++) {
            if (!window.tryAcquire(REPLY_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("No reply to an offer within " + REPLY_TIMEOUT_SECONDS + " s");
            }
            delayed.offerAsync(valueOf.apply(i), delayMs + i, TimeUnit.MILLISECONDS).whenComplete((done, error) -> {
                if (error != null) {
                    failure.compareAndSet(null, error);
                }
                window.release();
            });
        }
        if (!window.tryAcquire(inFlight, REPLY_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            throw new IllegalStateException("Offers still unanswered after " + REPLY_TIMEOUT_SECONDS + " s");
        }
        if (failure.get() != null) {
            throw new IllegalStateException("An offer failed", failure.get());
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /** Offers {@code perSecond} messages a second, with delays spread over {@code maxDelayMs}, until closed. */
    void produce(int perSecond, long maxDelayMs) {
        AtomicInteger sequence = new AtomicInteger();
        producing = threads.scheduleAtFixedRate(() -> offer("late-" + sequence.incrementAndGet(),
                ThreadLocalRandom.current().nextLong(maxDelayMs + 1)), 0, 1000 / perSecond, TimeUnit.MILLISECONDS);
    }

    /** Stops the producer after the offer under way, if any. */
    void stopProducing() throws Exception {
        producing.cancel(false);
        threads.submit(() -> {
        }).get();
    }

    /** Takes from the destination list, as the old worker thread did, until {@link #stopConsuming()}. */
    void consume() {
        consuming = true;
        consumer = threads.submit(() -> {
            while (consuming) {
                try {
                    String value = destination.poll(100, TimeUnit.MILLISECONDS);
                    if (value != null) {
                        taken.add(value);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        });
    }

    /**
     * Stops the consumer once the poll under way has returned: interrupting it could lose the message it popped, the
     * loss of a stopped RDelayedQueue consumer.
     */
    void stopConsuming() throws Exception {
        consuming = false;
        if (consumer != null) {
            consumer.get(5, TimeUnit.SECONDS);
        }
    }

    List<String> taken() {
        return taken;
    }

    public List<String> offered() {
        return offered;
    }

    public long destinationSize() {
        return destination.size();
    }

    @Override
    public void close() throws InterruptedException {
        consuming = false;
        threads.shutdownNow();
        threads.awaitTermination(5, TimeUnit.SECONDS);
        client.shutdown();
    }
}
