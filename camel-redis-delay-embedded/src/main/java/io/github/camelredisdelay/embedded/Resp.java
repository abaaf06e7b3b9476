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
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Just enough RESP2 to send one command on a fresh connection and read its reply, so this module can probe and steer a
 * server without a client library, and to read what a subscribed connection is sent ({@link Subscription}). Not a
 * client: no pooling, pipelining or RESP3.
 */
final class Resp {

    private Resp() {
    }

    /**
     * Sends {@code args} as one command and returns the reply as text: simple strings, integers and bulk strings as
     * they are, a nil bulk string as {@code null}, an array as its elements joined by newlines (nil elements as empty
     * lines).
     *
     * @param  timeout               bounds the connect and every read
     * @throws IllegalStateException with Redis' text when the reply is an error
     * @throws IOException           when the connection fails or closes before a reply, as after {@code SHUTDOWN}
     */
    static String call(String host, int port, Duration timeout, String... args) throws IOException {
        try (Socket socket = connect(host, port, timeout)) {
            write(socket.getOutputStream(), args);
            return read(new BufferedInputStream(socket.getInputStream()), args[0]);
        }
    }

    /** A new connection whose connect and every read are bounded by {@code timeout}. */
    static Socket connect(String host, int port, Duration timeout) throws IOException {
        int millis = Math.toIntExact(timeout.toMillis());
        Socket socket = new Socket();
        try {
            socket.connect(new InetSocketAddress(host, port), millis);
            socket.setSoTimeout(millis);
            return socket;
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    /** Sends {@code args} as one command. */
    static void write(OutputStream socketOut, String... args) throws IOException {
        OutputStream out = new BufferedOutputStream(socketOut);
        out.write(("*" + args.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (String arg : args) {
            byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
            out.write(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(bytes);
            out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        out.flush();
    }

    /**
     * Reads one reply, or one message pushed to a subscribed connection, as text as {@link #call} returns it.
     *
     * @param commandName the command replied to, for exception messages
     */
    static String read(InputStream in, String commandName) throws IOException {
        int type = in.read();
        if (type == -1) {
            throw new EOFException("Connection closed before the reply to " + commandName);
        }
        String line = readLine(in);
        return switch (type) {
            case '+', ':' -> line;
            case '-' -> throw new IllegalStateException("Redis replied to " + commandName + ": " + line);
            case '$' -> readBulk(in, Integer.parseInt(line));
            case '*' -> readArray(in, Integer.parseInt(line), commandName);
            default -> throw new IOException(
                    "Unexpected RESP type '" + (char) type + "' in the reply to "
                                             + commandName);
        };
    }

    private static String readBulk(InputStream in, int length) throws IOException {
        if (length < 0) {
            return null;
        }
        byte[] bytes = in.readNBytes(length);
        if (bytes.length < length) {
            throw new EOFException("Connection closed inside a bulk string");
        }
        readLine(in);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static String readArray(InputStream in, int size, String commandName) throws IOException {
        if (size < 0) {
            return null;
        }
        List<String> elements = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            elements.add(Objects.toString(read(in, commandName), ""));
        }
        return String.join("\n", elements);
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int previous = -1;
        for (int current = in.read(); current != -1; current = in.read()) {
            if (previous == '\r' && current == '\n') {
                byte[] bytes = line.toByteArray();
                return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
            }
            line.write(current);
            previous = current;
        }
        throw new EOFException("Connection closed inside a reply line");
    }
}
