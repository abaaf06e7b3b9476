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

import java.security.PrivateKey;
import java.security.cert.X509Certificate;

/**
 * A certificate issued by a {@link TestCertificateAuthority}, with its private key and the CA certificate that signed
 * it.
 *
 * @param key         the private key
 * @param certificate the certificate
 * @param issuer      the CA certificate
 */
record IssuedCertificate(PrivateKey key, X509Certificate certificate, X509Certificate issuer) {
}
