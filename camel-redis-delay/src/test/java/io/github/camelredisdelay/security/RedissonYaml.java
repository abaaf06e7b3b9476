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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the Redisson YAML file a user gives the component's {@code redissonConfig} option: the server's address and,
 * as needed, the truststore (which CA to trust), the keystore (the client certificate for mutual TLS) and the ACL user
 * to log in as. In Redisson 4 these settings belong at the top level of the file; inside {@code singleServerConfig}
 * they are deprecated.
 */
final class RedissonYaml {

    private final String address;
    private final StringBuilder settings = new StringBuilder();

    private RedissonYaml(String address) {
        this.address = address;
    }

    /** A configuration for one server at {@code address}, with the JVM's default trust. */
    static RedissonYaml forAddress(String address) {
        return new RedissonYaml(address);
    }

    /** Trusts the CA of {@code tls} instead of the JVM's default CAs. */
    RedissonYaml trustingTestCa(TlsMaterial tls) {
        return setting("sslTruststore", tls.truststore().toUri().toString())
                .setting("sslTruststorePassword", tls.storePassword());
    }

    /** Presents the client certificate of {@code tls}. */
    RedissonYaml presentingClientCertificate(TlsMaterial tls) {
        return setting("sslKeystore", tls.clientKeystore().toUri().toString())
                .setting("sslKeystorePassword", tls.storePassword());
    }

    /**
     * Logs in as {@code user}. The password is written as given, so it can be a variable such as
     * {@code ${REDIS_PASSWORD}} that Redisson replaces with an environment variable or system property.
     */
    RedissonYaml loggingInAs(String user, String password) {
        return setting("username", user).setting("password", password);
    }

    /**
     * Writes the file and returns its path. The pools start with one connection each instead of Redisson's 24: every
     * TLS connection loads the stores and shakes hands, which would make each test seconds slower.
     */
    Path writeTo(Path file) {
        String yaml = settings + "singleServerConfig:\n"
                      + "  address: \"" + address + "\"\n"
                      + "  connectionMinimumIdleSize: 1\n"
                      + "  subscriptionConnectionMinimumIdleSize: 1\n";
        try {
            return Files.writeString(file, yaml, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + file, e);
        }
    }

    private RedissonYaml setting(String name, String value) {
        settings.append(name).append(": \"").append(value).append("\"\n");
        return this;
    }
}
