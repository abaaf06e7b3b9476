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
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.RedisDelayConsumer;
import io.github.camelredisdelay.test.CamelNodes;
import io.github.camelredisdelay.test.HealthChecks;
import io.github.camelredisdelay.test.LogLines;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.health.HealthCheck;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.redisson.Redisson;
import org.redisson.client.RedisConnectionException;
import org.redisson.config.Config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The component over TLS, configured as a user would: a Redisson YAML file ({@code redissonConfig}) with a
 * {@code rediss://} address and the truststore of the CA that signed the server's certificate, plus a keystore for a
 * server that requires client certificates. The test issues its own certificates.
 *
 * <p>
 * The refusals are checked with a bare Redisson client made from the same kind of file, connecting once: they prove the
 * servers accept nothing but TLS, from clients that trust the CA (and present a certificate where required), so the
 * routes above really ran over TLS.
 */
class TlsTest {

    @TempDir
    static Path dir;

    private static TlsMaterial tls;
    private static TlsRedisServer server;
    private static TlsRedisServer mutualTlsServer;

    private final CamelNodes nodes = new CamelNodes();
    private final List<Object> delivered = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void startServers() {
        tls = TlsMaterial.createIn(dir);
        server = TlsRedisServer.start(tls, false);
        mutualTlsServer = TlsRedisServer.start(tls, true);
        System.out.println("[redis-test] TLS tests use redis-server " + server.version());
    }

    @AfterAll
    static void stopServers() {
        if (mutualTlsServer != null) {
            mutualTlsServer.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @AfterEach
    void stopNodes() {
        nodes.close();
    }

    @Test
    void routeDeliversOverTlsWithTheTruststoreOfARedissonYaml() throws Exception {
        Path yaml = RedissonYaml.forAddress(server.tlsAddress()).trustingTestCa(tls).writeTo(dir.resolve("tls.yaml"));

        CamelContext node = nodes.start(options -> options.setRedissonConfig(yaml.toString()), consumer("orders"));
        node.createProducerTemplate().sendBody("redis-delay:orders?delay=200", "order-1");

        await().atMost(Duration.ofSeconds(10)).until(() -> delivered.contains("order-1"));
    }

    @Test
    void mutualTlsRouteDeliversWithTheClientCertificateOfTheKeystore() throws Exception {
        Path yaml = RedissonYaml.forAddress(mutualTlsServer.tlsAddress()).trustingTestCa(tls)
                .presentingClientCertificate(tls).writeTo(dir.resolve("mutual-tls.yaml"));

        CamelContext node = nodes.start(options -> options.setRedissonConfig(yaml.toString()), consumer("payments"));
        node.createProducerTemplate().sendBody("redis-delay:payments?delay=200", "payment-1");

        await().atMost(Duration.ofSeconds(10)).until(() -> delivered.contains("payment-1"));
    }

    @Test
    void plainConnectionToTheTlsPortIsRefused() {
        Path yaml = RedissonYaml.forAddress(server.plainAddressOfTlsPort()).writeTo(dir.resolve("plain.yaml"));

        assertThatThrownBy(() -> connectOnce(yaml)).isInstanceOf(RedisConnectionException.class);
        await().atMost(Duration.ofSeconds(5)).until(() -> server.logMentions("wrong version number"));
    }

    @Test
    void serverCertificateOfAnUntrustedCaIsRejected() {
        Path yaml = RedissonYaml.forAddress(server.tlsAddress()).writeTo(dir.resolve("default-trust.yaml"));

        assertThatThrownBy(() -> connectOnce(yaml)).isInstanceOf(RedisConnectionException.class)
                .hasStackTraceContaining("PKIX path building failed");
    }

    @Test
    void untrustedServerCertificateIsNamedByTheFailedSendTheConsumersWarningAndReadiness() throws Exception {
        Path yaml = RedissonYaml.forAddress(server.tlsAddress()).writeTo(dir.resolve("component-default-trust.yaml"));
        String handshake = "PKIX path building failed";
        try (LogLines consumerLog = LogLines.of(RedisDelayConsumer.class)) {
            CamelContext node = nodes.create(options -> options.setRedissonConfig(yaml.toString()), new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:untrusted").to("mock:never");
                    from("direct:in").to("redis-delay:untrusted?delay=1h");
                }
            });
            HealthChecks.enableConsumersAndProducers(node);
            node.start();

            Exchange sent = node.createProducerTemplate().send("direct:in", exchange -> exchange.getMessage().setBody("o"));
            assertThat(sent.getException()).as("the failed schedule's exception").isNotNull()
                    .hasMessageContaining(handshake);
            await("the consumer's warning").atMost(Duration.ofSeconds(20))
                    .untilAsserted(() -> assertThat(consumerLog.lines())
                            .anySatisfy(line -> assertThat(line).startsWith("WARN").contains(handshake)));
            HealthCheck producerCheck = HealthChecks.producerCheck(node);
            await("readiness naming the handshake").atMost(Duration.ofSeconds(20))
                    .untilAsserted(() -> assertThat(producerCheck.call().getMessage()).hasValueSatisfying(
                            message -> assertThat(message).contains(handshake)));
        }
    }

    @Test
    void mutualTlsServerRefusesAClientWithoutCertificate() {
        Path yaml = RedissonYaml.forAddress(mutualTlsServer.tlsAddress()).trustingTestCa(tls)
                .writeTo(dir.resolve("no-client-certificate.yaml"));

        assertThatThrownBy(() -> connectOnce(yaml)).isInstanceOf(RedisConnectionException.class);
        await().atMost(Duration.ofSeconds(5))
                .until(() -> mutualTlsServer.logMentions("peer did not return a certificate"));
    }

    /** Creates a Redisson client from the file, connecting at once, with one short attempt; shuts it down. */
    private static void connectOnce(Path yaml) throws IOException {
        Config config = Config.fromYAML(yaml.toFile());
        config.useSingleServer().setRetryAttempts(0).setConnectTimeout(2000).setTimeout(500);
        Redisson.create(config).shutdown();
    }

    private RouteBuilder consumer(String queue) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                // polling: a blocking consumer's long read would hold the context's stop for up to a second
                from("redis-delay:" + queue + "?consumerType=polling&pollInterval=50")
                        .process(exchange -> delivered.add(exchange.getMessage().getBody()));
            }
        };
    }
}
