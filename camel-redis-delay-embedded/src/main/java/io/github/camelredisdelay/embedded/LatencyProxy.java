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
package io.github.camelredisdelay.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A TCP proxy on 127.0.0.1 that delays each direction by a fixed time, as the network between an application and a
 * Redis server on another host does. Each direction of a connection has a reader, which stamps every chunk it reads
 * with its release time and queues it, and a writer, which sends the chunk once that time has come. Reading goes on
 * while chunks wait, so pipelined commands keep flowing and throughput is not capped by the delay, as on a real link.
 * The benchmark's added round trip (P6) and the component's tests of a Redis on a slow link use it.
 */
public final class LatencyProxy implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LatencyProxy.class);

    private static final int CHUNK_BYTES = 64 * 1024;
    /** Chunks waiting per direction; a reader beyond it waits, as a sender does when the TCP window is full. */
    private static final int QUEUED_CHUNKS = 4096;
    /** How often blocked threads look whether the proxy was closed. */
    private static final long CHECK_MS = 500;

    private final ServerSocket server;
    private final int targetPort;
    private volatile long oneWayNanos;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final ExecutorService threads = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "latency-proxy");
        thread.setDaemon(true);
        return thread;
    });
    private volatile boolean open = true;

    private LatencyProxy(ServerSocket server, int targetPort, Duration oneWay) {
        this.server = server;
        this.targetPort = targetPort;
        this.oneWayNanos = oneWay.toNanos();
    }

    /** Listens on an ephemeral loopback port and forwards to {@code targetPort} on loopback. */
    public static LatencyProxy start(int targetPort, Duration oneWay) {
        try {
            ServerSocket server = new ServerSocket();
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            LatencyProxy proxy = new LatencyProxy(server, targetPort, oneWay);
            proxy.threads.execute(proxy::accept);
            return proxy;
        } catch (IOException e) {
            throw new IllegalStateException("Cannot open the latency proxy", e);
        }
    }

    /** Changes the delay of each direction for what is read from now on. */
    public void oneWay(Duration delay) {
        oneWayNanos = delay.toNanos();
    }

    public Duration oneWay() {
        return Duration.ofNanos(oneWayNanos);
    }

    public int port() {
        return server.getLocalPort();
    }

    public String uri() {
        return "redis://127.0.0.1:" + port();
    }

    private void accept() {
        while (open) {
            try {
                Socket client = server.accept();
                Socket target = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                for (Socket socket : new Socket[] { client, target }) {
                    socket.setTcpNoDelay(true);
                    sockets.add(socket);
                }
                forward(client, target);
                forward(target, client);
            } catch (IOException e) {
                if (open) {
                    LOG.warn("Latency proxy: cannot connect a client: {}", e.toString());
                }
            }
        }
    }

    private void forward(Socket from, Socket to) {
        BlockingQueue<Chunk> queue = new ArrayBlockingQueue<>(QUEUED_CHUNKS);
        threads.execute(() -> read(from, queue));
        threads.execute(() -> write(queue, from, to));
    }

    /** Queues what arrives, stamped with its release time; the end of the stream as an empty chunk. */
    private void read(Socket from, BlockingQueue<Chunk> queue) {
        byte[] buffer = new byte[CHUNK_BYTES];
        try (InputStream in = from.getInputStream()) {
            for (int n = in.read(buffer); n >= 0 && open; n = in.read(buffer)) {
                enqueue(queue, new Chunk(System.nanoTime() + oneWayNanos, Arrays.copyOf(buffer, n)));
            }
        } catch (IOException e) {
            // the connection was closed, by a peer or by close()
        }
        enqueue(queue, new Chunk(System.nanoTime() + oneWayNanos, new byte[0]));
    }

    private void enqueue(BlockingQueue<Chunk> queue, Chunk chunk) {
        try {
            while (open && !queue.offer(chunk, CHECK_MS, TimeUnit.MILLISECONDS)) {
                // the writer is behind: wait, as a full TCP window makes the sender wait
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Sends each chunk at its release time; at the end of the stream closes both sockets. */
    private void write(BlockingQueue<Chunk> queue, Socket from, Socket to) {
        try (OutputStream out = to.getOutputStream()) {
            while (open) {
                Chunk chunk = queue.poll(CHECK_MS, TimeUnit.MILLISECONDS);
                if (chunk == null) {
                    continue;
                }
                for (long wait = chunk.releaseNanos - System.nanoTime(); wait > 0 && open; wait
                        = chunk.releaseNanos - System.nanoTime()) {
                    LockSupport.parkNanos(wait);
                }
                if (chunk.bytes.length == 0) {
                    break;
                }
                out.write(chunk.bytes);
            }
        } catch (IOException e) {
            // the other side went away; closing both ends tells the peer
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeQuietly(from);
        closeQuietly(to);
    }

    private void closeQuietly(Socket socket) {
        sockets.remove(socket);
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() {
        open = false;
        try {
            server.close();
        } catch (IOException e) {
            // already closed
        }
        sockets.forEach(this::closeQuietly);
        threads.shutdown();
        try {
            if (!threads.awaitTermination(CHECK_MS * 4, TimeUnit.MILLISECONDS)) {
                threads.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Bytes read at one time, and when they may go on. */
    private record Chunk(long releaseNanos, byte[] bytes) {
    }
}
