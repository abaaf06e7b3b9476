package io.github.camelredisdelay.benchmark;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
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
    public Load preload(int count, IntFunction<String> body, IntFunction<Due> due, Duration bound) {
        Semaphore inFlight = new Semaphore(PRELOAD_IN_FLIGHT);
        AtomicInteger failed = new AtomicInteger();
        long start = System.nanoTime();
        long deadline = start + bound.toNanos();
        int offered = 0;
        try {
            for (; offered < count && System.nanoTime() - deadline < 0; offered++) {
                if (!inFlight.tryAcquire(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    break;
                }
                delayed.offerAsync(body.apply(offered), due.apply(offered).delayFromNow(), TimeUnit.MILLISECONDS)
                        .whenComplete((ignored, error) -> {
                            if (error != null) {
                                failed.incrementAndGet();
                            }
                            inFlight.release();
                        });
            }
            inFlight.tryAcquire(PRELOAD_IN_FLIGHT, Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (failed.get() > 0 || offered < count) {
            System.out.printf("    preload of %s: %d of %d offered, %d failed%n", name, offered, count, failed.get());
        }
        int stored = offered - failed.get();
        return new Load(stored, Numbers.perSecond(stored, System.nanoTime() - start));
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
