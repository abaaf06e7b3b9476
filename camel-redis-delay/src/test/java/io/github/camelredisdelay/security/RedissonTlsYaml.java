package io.github.camelredisdelay.security;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the Redisson YAML file a user gives the component's {@code redissonConfig} option to reach a TLS server:
 * the {@code rediss://} address, and optionally the truststore (which CA to trust) and the keystore (the client
 * certificate for mutual TLS). In Redisson 4 the {@code ssl*} settings belong at the top level of the file;
 * inside {@code singleServerConfig} they are deprecated.
 */
final class RedissonTlsYaml {

    private final String address;
    private final StringBuilder sslSettings = new StringBuilder();

    private RedissonTlsYaml(String address) {
        this.address = address;
    }

    /** A configuration for one server at {@code address}, with the JVM's default trust. */
    static RedissonTlsYaml forAddress(String address) {
        return new RedissonTlsYaml(address);
    }

    /** Trusts the CA of {@code tls} instead of the JVM's default CAs. */
    RedissonTlsYaml trustingTestCa(TlsMaterial tls) {
        return setting("sslTruststore", tls.truststore().toUri().toString())
                .setting("sslTruststorePassword", tls.storePassword());
    }

    /** Presents the client certificate of {@code tls}. */
    RedissonTlsYaml presentingClientCertificate(TlsMaterial tls) {
        return setting("sslKeystore", tls.clientKeystore().toUri().toString())
                .setting("sslKeystorePassword", tls.storePassword());
    }

    /**
     * Writes the file and returns its path. The pools start with one connection each instead of Redisson's 24:
     * every TLS connection loads the stores and shakes hands, which would make each test seconds slower.
     */
    Path writeTo(Path file) {
        String yaml = sslSettings + "singleServerConfig:\n"
                + "  address: \"" + address + "\"\n"
                + "  connectionMinimumIdleSize: 1\n"
                + "  subscriptionConnectionMinimumIdleSize: 1\n";
        try {
            return Files.writeString(file, yaml, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + file, e);
        }
    }

    private RedissonTlsYaml setting(String name, String value) {
        sslSettings.append(name).append(": \"").append(value).append("\"\n");
        return this;
    }
}
