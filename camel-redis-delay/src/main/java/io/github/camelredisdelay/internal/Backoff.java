package io.github.camelredisdelay.internal;

/**
 * Exponential back-off between retries against an unreachable Redis: doubles from {@code initialMs} up to
 * {@code maxMs}, and starts over after a success.
 */
public final class Backoff {

    private final long initialMs;
    private final long maxMs;
    private long nextMs;

    public Backoff(long initialMs, long maxMs) {
        this.initialMs = initialMs;
        this.maxMs = maxMs;
        this.nextMs = initialMs;
    }

    public synchronized long next() {
        long current = nextMs;
        nextMs = Math.min(maxMs, nextMs * 2);
        return current;
    }

    public synchronized void reset() {
        nextMs = initialMs;
    }
}
