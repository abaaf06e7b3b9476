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
package io.github.camelredisdelay.test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;

/**
 * Sends {@code PING} on one plain connection about every millisecond, on a thread of its own, and keeps the longest
 * round trip: how long Redis kept a client waiting while something else ran, such as a long script. Round trips during
 * which this JVM collected garbage are kept apart: a stop-the-world pause holds the loop itself, not Redis. Stops when
 * closed, after {@value #MAX_PINGS} pings or at its deadline, whichever comes first.
 */
public final class PingLoop implements AutoCloseable {

    private static final byte[] PING = "PING\r\n".getBytes(StandardCharsets.US_ASCII);
    /** {@code +PONG\r\n} */
    private static final int PONG_BYTES = 7;
    private static final long PACE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final int MAX_PINGS = 10_000_000;
    private static final long[] BOUNDS_MILLIS = { 1, 5, 10, 20, 50 };

    private final Socket socket;
    private final long deadline;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile long maxNanos;
    private volatile long maxNanosAcrossGc;
    private volatile int pingsAcrossGc;
    private volatile int pings;
    /** Round trips (outside this JVM's collections) of at most 1, 5, 10, 20, 50 ms, and longer. */
    private final AtomicIntegerArray histogram = new AtomicIntegerArray(BOUNDS_MILLIS.length + 1);
    private volatile IOException failure;

    private PingLoop(Socket socket, Duration atMost) {
        this.socket = socket;
        this.deadline = System.nanoTime() + atMost.toNanos();
        this.thread = new Thread(this::run, "ping-loop");
        thread.setDaemon(true);
    }

    /** Connects to the server at {@code host:port} (no password) and starts pinging for at most {@code atMost}. */
    public static PingLoop start(String host, int port, Duration atMost) throws IOException {
        Socket socket = new Socket(host, port);
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(10_000);
        PingLoop loop = new PingLoop(socket, atMost);
        loop.thread.start();
        return loop;
    }

    private void run() {
        byte[] reply = new byte[PONG_BYTES];
        try {
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            while (running && pings < MAX_PINGS && System.nanoTime() - deadline < 0) {
                long collections = collectionMillis();
                long start = System.nanoTime();
                out.write(PING);
                for (int read = 0; read < PONG_BYTES;) {
                    int n = in.read(reply, read, PONG_BYTES - read);
                    if (n < 0) {
                        throw new IOException("connection closed after " + pings + " PINGs");
                    }
                    read += n;
                }
                long took = System.nanoTime() - start;
                if (collectionMillis() == collections) {
                    maxNanos = Math.max(maxNanos, took);
                    histogram.incrementAndGet(bucket(took));
                } else {
                    maxNanosAcrossGc = Math.max(maxNanosAcrossGc, took);
                    pingsAcrossGc++;
                }
                pings++;
                // the probe's pace, not a wait for a condition: pinging flat out would take a core from Redis
                LockSupport.parkNanos(PACE_NANOS);
            }
        } catch (IOException e) {
            failure = e;
        }
    }

    private static long collectionMillis() {
        long total = 0;
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            total += Math.max(0, collector.getCollectionTime());
        }
        return total;
    }

    private static int bucket(long nanos) {
        int bucket = 0;
        while (bucket < BOUNDS_MILLIS.length && nanos > TimeUnit.MILLISECONDS.toNanos(BOUNDS_MILLIS[bucket])) {
            bucket++;
        }
        return bucket;
    }

    /** How the round trips outside this JVM's collections spread, e.g. {@code <=1ms 950, <=5ms 40, ..., >50ms 0}. */
    public String spread() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < BOUNDS_MILLIS.length; i++) {
            text.append("<=").append(BOUNDS_MILLIS[i]).append("ms ").append(histogram.get(i)).append(", ");
        }
        return text.append(">").append(BOUNDS_MILLIS[BOUNDS_MILLIS.length - 1]).append("ms ")
                .append(histogram.get(BOUNDS_MILLIS.length)).toString();
    }

    /** The longest round trip so far during which this JVM did not collect garbage, ms. */
    public double maxMillis() {
        return maxNanos / 1e6;
    }

    /** The longest round trip so far during which this JVM collected garbage, ms. */
    public double maxMillisAcrossGc() {
        return maxNanosAcrossGc / 1e6;
    }

    /** Round trips during which this JVM collected garbage. */
    public int pingsAcrossGc() {
        return pingsAcrossGc;
    }

    public int pings() {
        return pings;
    }

    /** Stops pinging; fails if the loop broke off with an error. */
    @Override
    public void close() throws IOException, InterruptedException {
        running = false;
        thread.join(TimeUnit.SECONDS.toMillis(15));
        socket.close();
        if (failure != null) {
            throw new IOException("PING loop failed after " + pings + " PINGs", failure);
        }
    }
}
