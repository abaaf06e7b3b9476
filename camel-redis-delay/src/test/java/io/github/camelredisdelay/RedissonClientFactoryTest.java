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

import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;

import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The settings of the client the component creates, from an address or from a YAML file. Only the configuration is
 * built, so nothing here connects to Redis.
 */
class RedissonClientFactoryTest {

    private static final String STORE_PASSWORD = "store-secret";

    @Test
    void aClientFromAnAddressSkipsRedissonsReferenceChecks() throws Exception {
        RedisDelayConfiguration configuration = new RedisDelayConfiguration();
        configuration.setAddress("redis://127.0.0.1:6379");

        assertThat(settingsOf(configuration)).satisfies(RedissonClientFactoryTest::componentSettings);
    }

    @Test
    void aClientFromAYamlFileSkipsRedissonsReferenceChecksToo(@TempDir Path dir) throws Exception {
        RedisDelayConfiguration configuration = fromFile(dir, """
                lazyInitialization: true
                singleServerConfig:
                  address: "redis://127.0.0.1:6379"
                """);

        assertThat(settingsOf(configuration)).satisfies(RedissonClientFactoryTest::componentSettings);
    }

    @Test
    void aRouteWhoseRedissonConfigRedissonRefusesFailsToStart(@TempDir Path dir) throws Exception {
        // Redisson refuses this when it builds the client, before connecting: the route must not start and fail later
        Path yaml = Files.writeString(dir.resolve("redisson.yaml"), """
                masterSlaveServersConfig:
                  masterAddress: "redis://127.0.0.1:6379"
                  readMode: "SLAVE"
                """);
        try (DefaultCamelContext context = new DefaultCamelContext()) {
            context.addRoutes(new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:orders?redissonConfig=" + yaml).log("${body}");
                }
            });

            assertThatThrownBy(context::start).rootCause().hasMessageContaining("readMode can't be SLAVE");
        }
    }

    /**
     * A file that configures TLS (a truststore or keystore) for an address without it: Redisson would talk in clear
     * text, password and all, without a word. Refused, naming the file, the key and the address.
     */
    @ParameterizedTest
    @ValueSource(strings = { """
            sslTruststore: "file:/etc/redis/truststore.p12"
            singleServerConfig:
              address: "redis://redis.example.com:6379"
            """, """
            sslKeystore: "file:/etc/redis/client.p12"
            clusterServersConfig:
              nodeAddresses:
              - "rediss://redis-1.example.com:6380"
              - "redis://redis-2.example.com:6379"
            """, """
            sslTruststore: "file:/etc/redis/truststore.p12"
            sentinelServersConfig:
              masterName: "orders"
              sentinelAddresses:
              - "redis://sentinel-1.example.com:26379"
            """ })
    void tlsKeysBesideAnAddressWithoutTlsAreRefusedNamingBoth(String file, @TempDir Path dir) throws Exception {
        RedisDelayConfiguration configuration = fromFile(dir, file);

        assertThatThrownBy(() -> settingsOf(configuration)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(configuration.getRedissonConfig()).hasMessageContaining("redis://")
                .hasMessageContaining("example.com").hasMessageContaining("rediss://");
    }

    /**
     * Redisson 4 also reads Valkey's schemes: {@code valkey://} without TLS, {@code valkeys://} with it. A file that
     * sets a truststore beside a {@code valkey://} address started, and Redisson talked to that server in clear text.
     */
    @ParameterizedTest
    @ValueSource(strings = { """
            sslTruststore: "file:/etc/redis/truststore.p12"
            singleServerConfig:
              address: "valkey://valkey.example.com:6379"
            """, """
            sslKeystore: "file:/etc/redis/client.p12"
            clusterServersConfig:
              nodeAddresses:
              - "valkeys://valkey-1.example.com:6380"
              - "valkey://valkey-2.example.com:6379"
            """ })
    void tlsKeysBesideAValkeyAddressWithoutTlsAreRefusedNamingBoth(String file, @TempDir Path dir) throws Exception {
        RedisDelayConfiguration configuration = fromFile(dir, file);

        assertThatThrownBy(() -> settingsOf(configuration)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(configuration.getRedissonConfig()).hasMessageContaining("valkey://valkey")
                .hasMessageContaining("valkeys://");
    }

    /**
     * Redisson opens the truststore and keystore only as it sets up each connection, where Netty logs what failed and
     * closes the channel: a missing file, a wrong password or a PEM file where a key store is expected showed as
     * "Unable to connect to Redis server" on every schedule, in the consumers' WARN ("cannot reach Redis") and in
     * readiness, none of which named the store or what was wrong with it.
     */
    @ParameterizedTest
    @CsvSource({
            "sslTruststore, missing, FileNotFoundException", "sslTruststore, wrong-password, the password does not open it",
            "sslTruststore, pem, PKCS12", "sslKeystore, wrong-password, the password does not open it" })
    void aStoreTheClientCannotOpenFailsNamingTheKeyTheFileAndWhy(
            String key, String mistake, String why,
            @TempDir Path dir)
            throws Exception {
        Path file = switch (mistake) {
            case "missing" -> dir.resolve("no-such-store.p12");
            case "pem" -> Files.writeString(dir.resolve("ca.crt"), "-----BEGIN CERTIFICATE-----\nMIIB\n"
                                                                   + "-----END CERTIFICATE-----\n");
            default -> emptyStore(dir);
        };
        String password = mistake.equals("wrong-password") ? "not-the-secret" : STORE_PASSWORD;
        RedisDelayConfiguration configuration = fromFile(dir, key + ": \"" + file.toUri() + "\"\n"
                                                              + key + "Password: \"" + password + "\"\n"
                                                              + "singleServerConfig:\n"
                                                              + "  address: \"rediss://127.0.0.1:6380\"\n");

        assertThatThrownBy(() -> settingsOf(configuration)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(configuration.getRedissonConfig()).hasMessageContaining(key + " file:")
                .hasMessageContaining(file.toString())
                .hasMessageContaining(key + "Password").hasMessageContaining(why).hasMessageNotContaining(password);
    }

    /**
     * Redisson replaces {@code ${NAME}} in the file with the variable's value before it parses the YAML, and
     * SnakeYAML's message quotes the lines around its error: a password holding a backslash (an unknown escape in the
     * double quotes the security guide shows), or an unknown key with the password on the first line, showed the
     * password in clear in the exception that fails the start, which Camel logs.
     */
    @ParameterizedTest
    @ValueSource(strings = { """
            password: "${%1$s}"
            singleServerConfig:
              address: "redis://127.0.0.1:6379"
            """, """
            password: '${%1$s}'
            singleServerConfig:
              adress: "redis://127.0.0.1:6379"
            """ })
    void aFileRedissonCannotReadFailsTheStartWithoutThePasswordOfItsVariable(String file, @TempDir Path dir)
            throws Exception {
        String variable = "camel.redis.delay.test.password";
        Path yaml = Files.writeString(dir.resolve("redisson.yaml"), file.formatted(variable));
        System.setProperty(variable, "s3cret\\qPw");
        try (DefaultCamelContext context = new DefaultCamelContext()) {
            context.addRoutes(new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:orders?redissonConfig=" + yaml).log("${body}");
                }
            });

            assertThatThrownBy(context::start).satisfies(failure -> {
                StringWriter trace = new StringWriter();
                failure.printStackTrace(new PrintWriter(trace));
                assertThat(trace.toString()).as("the exception with its causes").doesNotContain("s3cret")
                        .contains(yaml.toString()).contains("line ");
            });
        } finally {
            System.clearProperty(variable);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = { "rediss://redis.example.com:6380", "valkeys://valkey.example.com:6380" })
    void tlsKeysBesideTlsAddressesAreTakenAsTheyAre(String address, @TempDir Path dir) throws Exception {
        RedisDelayConfiguration configuration = fromFile(dir, """
                sslTruststore: "%s"
                sslTruststorePassword: "%s"
                singleServerConfig:
                  address: "%s"
                """.formatted(emptyStore(dir).toUri(), STORE_PASSWORD, address));

        assertThat(settingsOf(configuration)).satisfies(RedissonClientFactoryTest::componentSettings);
    }

    /** Each value passed to a script is otherwise checked for Redisson annotations by reflection: ~1 µs a message. */
    private static void componentSettings(Config config) {
        assertThat(config.isReferenceEnabled()).isFalse();
        assertThat(config.getCodec()).isSameAs(StringCodec.INSTANCE);
        // the component creates the client when first used, one caller at a time (ConnectedClient)
        assertThat(config.isLazyInitialization()).isFalse();
    }

    /** A configuration that reads the Redisson file {@code yaml}, written into {@code dir}. */
    /** A PKCS12 store with nothing in it, as Redisson would open it, locked with {@link #STORE_PASSWORD}. */
    private static Path emptyStore(Path dir) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        Path file = dir.resolve("store.p12");
        try (OutputStream out = Files.newOutputStream(file)) {
            store.store(out, STORE_PASSWORD.toCharArray());
        }
        return file;
    }

    private static RedisDelayConfiguration fromFile(Path dir, String yaml) throws Exception {
        RedisDelayConfiguration configuration = new RedisDelayConfiguration();
        configuration.setRedissonConfig(Files.writeString(dir.resolve("redisson.yaml"), yaml).toString());
        return configuration;
    }

    private static Config settingsOf(RedisDelayConfiguration configuration) throws Exception {
        try (DefaultCamelContext context = new DefaultCamelContext()) {
            return RedissonClientFactory.config(context, configuration);
        }
    }
}
