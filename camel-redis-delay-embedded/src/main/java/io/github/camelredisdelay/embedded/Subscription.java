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

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One connection subscribed to one channel ({@code SUBSCRIBE}) of a server, which collects the payloads published to
 * that channel on a daemon thread until it is closed.
 */
final class Subscription implements AutoCloseable {

    private final Socket socket;
    private final Set<String> payloads = ConcurrentHashMap.newKeySet();

    private Subscription(Socket socket) {
        this.socket = socket;
    }

    /**
     * Subscribes a new connection to {@code channel} and returns once the server has confirmed it.
     *
     * @throws IOException when the server cannot be reached or does not confirm within {@code timeout}
     */
    static Subscription open(RedisServerProcess server, String channel, Duration timeout) throws IOException {
        Socket socket = Resp.connect(server.host(), server.port(), timeout);
        try {
            Resp.write(socket.getOutputStream(), "SUBSCRIBE", channel);
            InputStream in = new BufferedInputStream(socket.getInputStream());
            Resp.read(in, "SUBSCRIBE");
            socket.setSoTimeout(0);
            Subscription subscription = new Subscription(socket);
            Thread reader = new Thread(() -> subscription.collect(in), "subscription to " + channel + " on " + server);
            reader.setDaemon(true);
            reader.start();
            return subscription;
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /** The distinct payloads received so far. */
    Set<String> payloads() {
        return Set.copyOf(payloads);
    }

    private void collect(InputStream in) {
        try {
            while (true) {
                // a pushed message: "message", the channel, the payload
                String[] message = Resp.read(in, "SUBSCRIBE").split("\n", 3);
                if (message.length == 3 && "message".equals(message[0])) {
                    payloads.add(message[2]);
                }
            }
        } catch (IOException closed) {
            // closed by close(), or by the server
        }
    }

    /** Closes the connection, which ends the reading thread. */
    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // the connection is gone either way
        }
    }
}
