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
package io.github.camelredisdelay.security;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import io.github.camelredisdelay.embedded.RedisBinary;
import io.github.camelredisdelay.embedded.RedisServerOptions;
import io.github.camelredisdelay.embedded.RedisServerProcess;

/**
 * A private redis-server that serves TLS on a port of its own, with the certificate and key of a {@link TlsMaterial}.
 * It runs the binary the rest of the suite runs ({@code redis.test.binary}): both the Redis 7 on {@code PATH} and the
 * embedded Redis 6.2 are built with TLS.
 *
 * <p>
 * The server keeps a plain port too, on loopback, because {@link RedisServerProcess} checks readiness and shuts the
 * server down through it; clients under test only ever get the TLS port.
 */
final class TlsRedisServer implements AutoCloseable {

    private static final int START_ATTEMPTS = 3;
    private static final String PORT_TAKEN = "port in use";

    private final RedisServerProcess process;
    private final int tlsPort;

    private TlsRedisServer(RedisServerProcess process, int tlsPort) {
        this.process = process;
        this.tlsPort = tlsPort;
    }

    /**
     * Starts the server and returns once it answers.
     *
     * @param  requireClientCertificates whether clients must present a certificate signed by the CA (mutual TLS)
     * @throws IllegalStateException     when it does not start, e.g. because the binary was built without TLS
     */
    static TlsRedisServer start(TlsMaterial tls, boolean requireClientCertificates) {
        RedisBinary binary = TestRedisBinary.selected();
        IllegalStateException lastFailure = null;
        // a free port can be taken between choosing and binding it; the process only retries its plain port
        for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
            int tlsPort = freePort();
            try {
                RedisServerOptions options = options(tls, tlsPort, requireClientCertificates);
                return new TlsRedisServer(RedisServerProcess.start(binary, options), tlsPort);
            } catch (IllegalStateException e) {
                if (e.getMessage() == null || !e.getMessage().contains(PORT_TAKEN)) {
                    throw new IllegalStateException(
                            "The TLS tests need a redis-server built with TLS; " + binary
                                                    + " did not start with TLS options",
                            e);
                }
                lastFailure = e;
            }
        }
        throw lastFailure;
    }

    /** The URL a TLS client connects to, {@code rediss://127.0.0.1:<tls port>}. */
    String tlsAddress() {
        return "rediss://" + process.host() + ":" + tlsPort;
    }

    /** The TLS port addressed as if it spoke plain RESP, {@code redis://127.0.0.1:<tls port>}. */
    String plainAddressOfTlsPort() {
        return "redis://" + process.host() + ":" + tlsPort;
    }

    /** Whether the server's log (in its directory) mentions {@code phrase}, e.g. why it refused a connection. */
    boolean logMentions(String phrase) {
        try (Stream<Path> files = Files.list(process.directory())) {
            return files.filter(file -> file.getFileName().toString().endsWith(".log"))
                    .anyMatch(log -> read(log).contains(phrase));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list " + process.directory(), e);
        }
    }

    /** The server's {@code redis_version}. */
    String version() {
        return process.version();
    }

    @Override
    public void close() {
        process.close();
    }

    private static RedisServerOptions options(TlsMaterial tls, int tlsPort, boolean requireClientCertificates) {
        return RedisServerOptions.defaults().withExtraArgs(
                "--tls-port", String.valueOf(tlsPort),
                "--tls-cert-file", tls.serverCertificate().toString(),
                "--tls-key-file", tls.serverKey().toString(),
                "--tls-ca-cert-file", tls.caCertificate().toString(),
                "--tls-auth-clients", requireClientCertificates ? "yes" : "no");
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot find a free loopback port", e);
        }
    }
}
