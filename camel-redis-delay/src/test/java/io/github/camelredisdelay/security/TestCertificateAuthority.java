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

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A throw-away certificate authority for TLS tests: an EC P-256 key with a self-signed CA certificate, issuing server
 * certificates for {@code 127.0.0.1}/{@code localhost} and client certificates. Everything is valid for one day from an
 * hour ago, so clock differences between the JVM and redis-server do not matter.
 */
final class TestCertificateAuthority {

    private static final String SIGNATURE = "SHA256withECDSA";
    private static final AtomicLong SERIALS = new AtomicLong(System.currentTimeMillis());

    private final X500Name name = new X500Name("CN=camel-redis-delay test CA");
    private final KeyPair keys;
    private final X509Certificate certificate;

    private TestCertificateAuthority() throws GeneralSecurityException, CertIOException, OperatorCreationException {
        keys = newKeyPair();
        JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
        X509v3CertificateBuilder builder = builder(name, keys.getPublic())
                .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
                .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                .addExtension(Extension.subjectKeyIdentifier, false,
                        extensions.createSubjectKeyIdentifier(keys.getPublic()));
        certificate = sign(builder);
    }

    /** A new authority with a fresh key. */
    static TestCertificateAuthority create() {
        try {
            return new TestCertificateAuthority();
        } catch (GeneralSecurityException | CertIOException | OperatorCreationException e) {
            throw new IllegalStateException("Cannot create the test CA", e);
        }
    }

    /** The CA certificate that clients and servers trust. */
    X509Certificate certificate() {
        return certificate;
    }

    /** A certificate a redis-server on loopback presents: valid for {@code 127.0.0.1} and {@code localhost}. */
    IssuedCertificate issueServerCertificate() {
        GeneralNames loopback = new GeneralNames(
                new GeneralName[] {
                        new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                        new GeneralName(GeneralName.dNSName, "localhost") });
        return issue("CN=localhost", KeyPurposeId.id_kp_serverAuth, loopback);
    }

    /** A certificate a client presents to a server that requires one. */
    IssuedCertificate issueClientCertificate(String commonName) {
        return issue("CN=" + commonName, KeyPurposeId.id_kp_clientAuth, null);
    }

    private IssuedCertificate issue(String subject, KeyPurposeId purpose, GeneralNames alternativeNames) {
        try {
            KeyPair subjectKeys = newKeyPair();
            JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder builder = builder(new X500Name(subject), subjectKeys.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
                    .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purpose))
                    .addExtension(Extension.authorityKeyIdentifier, false,
                            extensions.createAuthorityKeyIdentifier(certificate));
            if (alternativeNames != null) {
                builder.addExtension(Extension.subjectAlternativeName, false, alternativeNames);
            }
            return new IssuedCertificate(subjectKeys.getPrivate(), sign(builder), certificate);
        } catch (GeneralSecurityException | CertIOException | OperatorCreationException e) {
            throw new IllegalStateException("Cannot issue a test certificate for " + subject, e);
        }
    }

    private X509v3CertificateBuilder builder(X500Name subject, PublicKey subjectKey) {
        Instant now = Instant.now();
        return new JcaX509v3CertificateBuilder(
                name, BigInteger.valueOf(SERIALS.incrementAndGet()),
                Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(1))), subject,
                subjectKey);
    }

    private X509Certificate sign(X509v3CertificateBuilder builder)
            throws OperatorCreationException, GeneralSecurityException {
        return new JcaX509CertificateConverter()
                .getCertificate(builder.build(new JcaContentSignerBuilder(SIGNATURE).build(keys.getPrivate())));
    }

    private static KeyPair newKeyPair() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        return generator.generateKeyPair();
    }
}
