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

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;

/** Round-trip times of {@code PING} on one connection to a loopback port: Redis itself, or a proxy in front of it. */
final class RttProbe {

    private static final byte[] PING = "PING\r\n".getBytes(StandardCharsets.US_ASCII);
    /** {@code +PONG\r\n} */
    private static final int PONG_BYTES = 7;

    private RttProbe() {
    }

    /**
     * The median of up to {@code pings} round trips, ms, sent one after the other within {@code bound}.
     */
    static double medianMillis(int port, int pings, Duration bound) {
        long[] rtts = new long[pings];
        int done = 0;
        long deadline = System.nanoTime() + bound.toNanos();
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout((int) bound.toMillis());
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            byte[] reply = new byte[PONG_BYTES];
            for (; done < pings && System.nanoTime() - deadline < 0; done++) {
                long start = System.nanoTime();
                out.write(PING);
                for (int read = 0; read < PONG_BYTES;) {
                    int n = in.read(reply, read, PONG_BYTES - read);
                    if (n < 0) {
                        throw new IOException("connection closed after " + done + " PINGs");
                    }
                    read += n;
                }
                rtts[done] = System.nanoTime() - start;
            }
        } catch (IOException e) {
            throw new IllegalStateException("PING on port " + port + " failed", e);
        }
        long[] measured = Arrays.copyOf(rtts, done);
        Arrays.sort(measured);
        return measured.length == 0 ? Double.NaN : measured[measured.length / 2] / 1e6;
    }
}
