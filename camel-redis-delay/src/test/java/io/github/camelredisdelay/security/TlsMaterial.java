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
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Base64;

/**
 * The files of a TLS test, written into one directory: PEM files for redis-server (the CA certificate, its certificate
 * and key) and PKCS#12 stores for the Java client (a truststore holding the CA, a keystore holding a client
 * certificate). Both stores use {@link #storePassword()}.
 *
 * @param caCertificate     PEM, the CA both sides trust ({@code tls-ca-cert-file})
 * @param serverCertificate PEM, for 127.0.0.1 and localhost ({@code tls-cert-file})
 * @param serverKey         PEM, PKCS#8 ({@code tls-key-file})
 * @param truststore        PKCS#12 with the CA certificate ({@code sslTruststore})
 * @param clientKeystore    PKCS#12 with a client key and certificate ({@code sslKeystore})
 * @param storePassword     the password of both stores
 */
record TlsMaterial(Path caCertificate, Path serverCertificate, Path serverKey, Path truststore, Path clientKeystore,
        String storePassword) {

    private static final String PASSWORD = "test-store-secret";

    /** Issues a CA, a server and a client certificate and writes every file into {@code dir}. */
    static TlsMaterial createIn(Path dir) {
        TestCertificateAuthority ca = TestCertificateAuthority.create();
        IssuedCertificate server = ca.issueServerCertificate();
        IssuedCertificate client = ca.issueClientCertificate("camel-redis-delay test client");
        TlsMaterial files = new TlsMaterial(
                dir.resolve("ca.crt"), dir.resolve("redis.crt"), dir.resolve("redis.key"),
                dir.resolve("truststore.p12"), dir.resolve("client.p12"), PASSWORD);
        try {
            writePem(files.caCertificate, "CERTIFICATE", ca.certificate().getEncoded());
            writePem(files.serverCertificate, "CERTIFICATE", server.certificate().getEncoded());
            writePem(files.serverKey, "PRIVATE KEY", server.key().getEncoded());
            KeyStore truststore = emptyStore();
            truststore.setCertificateEntry("ca", ca.certificate());
            save(truststore, files.truststore);
            KeyStore keystore = emptyStore();
            keystore.setKeyEntry("client", client.key(), PASSWORD.toCharArray(),
                    new Certificate[] { client.certificate(), client.issuer() });
            save(keystore, files.clientKeystore);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Cannot write the TLS test files into " + dir, e);
        }
        return files;
    }

    private static void writePem(Path file, String type, byte[] der) {
        String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
        String pem = "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
        try {
            Files.writeString(file, pem, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + file, e);
        }
    }

    private static KeyStore emptyStore() throws GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try {
            store.load(null, null);
        } catch (IOException impossible) {
            throw new UncheckedIOException(impossible);
        }
        return store;
    }

    private static void save(KeyStore store, Path file) throws GeneralSecurityException {
        try (OutputStream out = Files.newOutputStream(file)) {
            store.store(out, PASSWORD.toCharArray());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + file, e);
        }
    }
}
