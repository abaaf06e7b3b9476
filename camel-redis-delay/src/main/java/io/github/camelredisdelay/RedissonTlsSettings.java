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
package io.github.camelredisdelay;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.UnrecoverableKeyException;
import java.util.List;
import java.util.Locale;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;

import io.github.camelredisdelay.internal.AddressText;
import io.github.camelredisdelay.internal.ServerSettings;
import org.apache.camel.util.URISupport;
import org.redisson.config.Config;

/**
 * Checks the TLS settings of a Redisson configuration file before the component builds a client from it, so that a
 * mistake fails the endpoint's start naming the setting. Redisson applies them only as it sets up each connection,
 * where Netty logs a failure and closes the channel, and every call then fails with "Unable to connect to Redis server"
 * and no reason.
 */
final class RedissonTlsSettings {

    /** The schemes of the addresses Redisson talks to over the network without TLS. */
    private static final List<String> PLAIN_SCHEMES = List.of("redis://", "valkey://");

    private RedissonTlsSettings() {
    }

    /**
     * Refuses TLS keys beside an address without TLS, and a truststore or keystore Redisson could not open.
     *
     * @param location where {@code config} was read from, for the messages
     */
    static void check(Config config, String location) {
        requireTlsForEveryAddress(config, location);
        requireOpenable(location, "sslTruststore", config.getSslTruststore(), config.getSslTruststorePassword(),
                config.getSslKeystoreType(), false);
        requireOpenable(location, "sslKeystore", config.getSslKeystore(), config.getSslKeystorePassword(),
                config.getSslKeystoreType(), true);
    }

    /**
     * Opens the store that {@code key} names as Redisson does: a key store of {@code sslKeystoreType} (the JVM's
     * default type when unset) read with its password, made into trust managers, or for a keystore into key managers
     * with the same password.
     */
    private static void requireOpenable(
            String location, String key, URL store, String password, String type, boolean withKeys) {
        if (store == null) {
            return;
        }
        char[] secret = password == null ? null : password.toCharArray();
        String storeType = type != null ? type : KeyStore.getDefaultType();
        try (InputStream in = store.openStream()) {
            KeyStore keyStore = KeyStore.getInstance(storeType);
            keyStore.load(in, secret);
            if (withKeys) {
                KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm()).init(keyStore, secret);
            } else {
                TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm()).init(keyStore);
            }
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException(
                    "The Redisson configuration " + location + " sets " + key + " "
                                               + URISupport.sanitizeUri(store.toString()) + ", which cannot be opened as a "
                                               + storeType.toUpperCase(Locale.ROOT) + " key store "
                                               + (password == null ? "without " : "with ") + key + "Password"
                                               + (type == null ? " (sslKeystoreType sets another type)" : "")
                                               + ": " + (wrongPassword(e) ? "the password does not open it, " : "") + e,
                    e);
        }
    }

    /**
     * Refuses a configuration that sets TLS keys (a truststore or keystore, or their factories) beside an address
     * without TLS ({@code redis://}, or Valkey's {@code valkey://}): Redisson would talk to that server in clear text,
     * password and all, without a word.
     */
    private static void requireTlsForEveryAddress(Config config, String location) {
        String key = config.getSslTruststore() != null ? "sslTruststore"
                : config.getSslKeystore() != null ? "sslKeystore"
                : config.getSslTrustManagerFactory() != null ? "sslTrustManagerFactory"
                : config.getSslKeyManagerFactory() != null ? "sslKeyManagerFactory" : null;
        if (key == null) {
            return;
        }
        ServerSettings.addresses(new Config(config)).stream().filter(RedissonTlsSettings::withoutTls).findFirst()
                .ifPresent(plain -> {
                    throw new IllegalArgumentException(
                            "The Redisson configuration " + location + " sets " + key + " for TLS, but its address "
                                                       + AddressText.of(plain) + " has none: Redisson would "
                                                       + "talk to it in clear text. Give it as rediss:// (valkeys:// "
                                                       + "for valkey://), or leave the TLS keys out");
                });
    }

    /** Whether {@code failure} to load a key store says that its password is not the store's (its keys' for PKCS12). */
    private static boolean wrongPassword(Exception failure) {
        return failure instanceof UnrecoverableKeyException || failure.getCause() instanceof UnrecoverableKeyException;
    }

    /** Whether Redisson talks to {@code address} over the network without TLS: its scheme is one of the plain ones. */
    private static boolean withoutTls(String address) {
        return address != null && PLAIN_SCHEMES.stream().anyMatch(address::startsWith);
    }
}
