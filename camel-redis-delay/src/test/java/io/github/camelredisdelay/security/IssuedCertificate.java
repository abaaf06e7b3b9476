package io.github.camelredisdelay.security;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;

/**
 * A certificate issued by a {@link TestCertificateAuthority}, with its private key and the CA certificate that
 * signed it.
 *
 * @param key         the private key
 * @param certificate the certificate
 * @param issuer      the CA certificate
 */
record IssuedCertificate(PrivateKey key, X509Certificate certificate, X509Certificate issuer) {
}
