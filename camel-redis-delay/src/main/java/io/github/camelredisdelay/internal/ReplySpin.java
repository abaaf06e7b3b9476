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
package io.github.camelredisdelay.internal;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * Lets a caller that waits alone for a reply from a nearby Redis spin for it for a moment before it parks, where that
 * shortens the wait. Waking a parked thread costs a system call on the thread that received the reply and a pass
 * through the scheduler for the parked one; on the reference machine that is about 23 µs, a quarter of a synchronous
 * schedule's round trip on loopback, and it costs nearly as much CPU as the spin that replaces it (design notes 13).
 * The spinner yields its processor at each look ({@link Thread#yield}), so that Redis and the thread that receives the
 * reply, when they wait for a processor, run before it: on a small machine a spinner that kept its processor delayed
 * the very reply it waited for. Where spinning still makes the wait longer, parking does better, so a {@link WayTrial}
 * times spinning (the costlier way: it takes a processor) and parking and takes the faster.
 * <p>
 * Spinning pays only while nothing else wants the CPU. So at most one thread waits this way at a time (per copy of this
 * class, so per JVM unless the component is loaded twice), and none with a single processor (the reply could not come
 * in while it spins); a spin ends as soon as its caller is no longer alone (others queued behind it, whose call the
 * thread receiving the reply must send); it lasts at most twice the shortest recent round trip; and there is none when
 * that round trip is unknown or the link is long ({@link RoundTrips#LONG_LINK_NANOS}), since a longer wait would be
 * spun away as CPU. A virtual thread that spins gives up its carrier thread at each look.
 */
final class ReplySpin {

    private static final boolean SEVERAL_PROCESSORS = Runtime.getRuntime().availableProcessors() > 1;
    /** Held by the one caller that waits alone and is timed; it also guards {@link #TRIAL}. */
    private static final AtomicBoolean WAITING_ALONE = new AtomicBoolean();
    /** Spinning and parking, in runs of waits each ({@link WayTrial#RUN}). */
    private static final WayTrial TRIAL = new WayTrial();

    private ReplySpin() {
    }

    /**
     * Returns the reply's result once it is in. A caller {@code alone} with a short round trip and several processors
     * first spins for it (see {@link #spin}) when the trial chose spinning, or is timed for the trial.
     *
     * @param floorNanos the shortest recent round trip ({@link RoundTrips#floorNanos}), 0 when unknown
     */
    static <R> R await(Future<R> reply, long floorNanos, BooleanSupplier alone)
            throws InterruptedException, ExecutionException {
        return await(reply, floorNanos, alone, TRIAL);
    }

    /** {@link #await(Future, long, BooleanSupplier)} with the given trial, guarded by {@link #WAITING_ALONE}. */
    static <R> R await(Future<R> reply, long floorNanos, BooleanSupplier alone, WayTrial trial)
            throws InterruptedException, ExecutionException {
        if (!SEVERAL_PROCESSORS || floorNanos <= 0 || floorNanos >= RoundTrips.LONG_LINK_NANOS
                || !WAITING_ALONE.compareAndSet(false, true)) {
            return reply.get();
        }
        try {
            if (!alone.getAsBoolean()) {
                return reply.get();
            }
            if (reply.isDone()) {
                // it came in before its caller waited (the caller was off its processor): no wait to time
                return reply.get();
            }
            boolean spin = trial.costlierNext();
            long started = System.nanoTime();
            if (spin) {
                spin(reply, 2 * floorNanos, alone);
            }
            R result = reply.get();
            trial.record(spin, System.nanoTime() - started);
            return result;
        } finally {
            WAITING_ALONE.set(false);
        }
    }

    /**
     * Returns once {@code reply} is done, its caller is no longer {@code alone}, or {@code budgetNanos} have passed.
     * The caller then waits for the reply as usual.
     */
    static void spin(Future<?> reply, long budgetNanos, BooleanSupplier alone) {
        long deadline = System.nanoTime() + budgetNanos;
        while (!reply.isDone() && alone.getAsBoolean() && System.nanoTime() - deadline < 0) {
            Thread.yield();
        }
    }
}
