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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

import org.redisson.api.RBlockingQueue;
import org.redisson.api.RDelayedQueue;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * Their side: Redisson's {@link RDelayedQueue} in front of an {@link RBlockingQueue}, as its users write it:
 * {@code offer(msg, delay, MILLISECONDS)} to schedule, consumer threads blocking in {@code poll(timeout)}.
 */
final class RDelayedQueueBaseline implements QueueUnderTest {

    /** Offers in flight during {@link #preload}: enough to pipeline, bounded so memory stays flat. */
    private static final int PRELOAD_IN_FLIGHT = 1024;
    private static final long POLL_SECONDS = 1;

    private final BenchRedis redis;
    private final String name;
    private final RBlockingQueue<String> destination;
    private final RDelayedQueue<String> delayed;
    private ExecutorService consumers;
    private final AtomicInteger consumerFailures = new AtomicInteger();
    private volatile boolean consuming;

    RDelayedQueueBaseline(BenchRedis redis, RedissonClient client, String name) {
        this.redis = redis;
        this.name = name;
        this.destination = client.getBlockingQueue(name, StringCodec.INSTANCE);
        this.delayed = client.getDelayedQueue(destination);
    }

    @Override
    public void schedule(String body, Due due) {
        delayed.offer(body, due.delayFromNow(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void scheduleAll(List<String> bodies, Due due) {
        long delay = due.delayFromNow();
        CompletableFuture.allOf(bodies.stream()
                .map(body -> delayed.offerAsync(body, delay, TimeUnit.MILLISECONDS).toCompletableFuture())
                .toArray(CompletableFuture[]::new)).join();
    }

    @Override
    public CompletionStage<?> scheduleAsync(String body, Due due) {
        return delayed.offerAsync(body, due.delayFromNow(), TimeUnit.MILLISECONDS);
    }

    @Override
    public Load preload(int count, IntFunction<String> body, IntFunction<Due> due, Duration bound) {
        Senders.Outcome outcome = AsyncSenders.run("preload-" + name, count, 1, PRELOAD_IN_FLIGHT, bound,
                i -> scheduleAsync(body.apply(i), due.apply(i)));
        return new Load(outcome.sent(), outcome.perSecond());
    }

    @Override
    public void startConsumers(int threads, MessageSink sink) {
        consuming = true;
        consumers = Executors.newFixedThreadPool(threads, task -> {
            Thread thread = new Thread(task, "rdelayedqueue-consumer-" + name);
            thread.setDaemon(true);
            return thread;
        });
        for (int i = 0; i < threads; i++) {
            consumers.execute(() -> consume(sink));
        }
    }

    private void consume(MessageSink sink) {
        while (consuming) {
            try {
                String body = destination.poll(POLL_SECONDS, TimeUnit.SECONDS);
                if (body != null) {
                    sink.received(body, Payload.due(body));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                // Redis stalled by the transfer script past the client timeout: try again while still consuming
                consumerFailures.incrementAndGet();
                pauseAfterFailure();
            }
        }
    }

    private static void pauseAfterFailure() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void stopConsumers() {
        if (consumers == null) {
            return;
        }
        consuming = false;
        consumers.shutdown();
        try {
            if (!consumers.awaitTermination(POLL_SECONDS + 10, TimeUnit.SECONDS)) {
                consumers.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        consumers = null;
        if (consumerFailures.get() > 0) {
            Bench.log("consumers of %s: %d polls failed (Redis stalled past the client timeout)", name,
                    consumerFailures.getAndSet(0));
        }
    }

    @Override
    public long readyCount() {
        return redis.length("list", name);
    }

    @Override
    public void close() {
        stopConsumers();
        delayed.destroy();
    }
}
