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
package io.github.camelredisdelay.internal;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;

import io.github.camelredisdelay.test.LogLines;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.RedisConnectionException;
import org.redisson.config.Config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * What a client that cannot connect leaves behind, and whose client a shutdown closes. Nothing listens on the address
 * these clients are given: no Redis is involved.
 */
class ConnectedClientTest {

    @Test
    void failedConnectionsLeaveNoClientThreadsBehind() throws IOException {
        ConnectedClient client = ConnectedClient.owned(configOf(closedPort()), "a closed port");
        long before = redissonThreads();

        for (int attempt = 0; attempt < 5; attempt++) {
            assertThatThrownBy(client::get).isInstanceOf(RedisConnectionException.class);
        }

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(redissonThreads()).isLessThanOrEqualTo(before));
    }

    @Test
    void aClientShutDownBeforeItConnectedNeverConnects() throws IOException {
        ConnectedClient client = ConnectedClient.owned(configOf(closedPort()), "a closed port");

        client.shutdown();

        assertThatThrownBy(client::get).isInstanceOf(RedisConnectionException.class).hasMessage("The client is shut down");
    }

    @Test
    void aBorrowedClientIsLeftToItsOwner() throws IOException {
        Config config = configOf(closedPort());
        config.setLazyInitialization(true);
        RedissonClient bean = Redisson.create(config);
        try {
            ConnectedClient.borrowed(bean).shutdown();

            assertThat(bean.isShutdown()).isFalse();
        } finally {
            bean.shutdown();
        }
    }

    @Test
    void aLazilyInitializedClusterClientBeanIsWarnedOf() throws IOException {
        Config config = new Config();
        config.setLazyInitialization(true);
        config.useClusterServers().addNodeAddress("redis://127.0.0.1:" + closedPort());
        RedissonClient bean = Redisson.create(config);
        try (LogLines log = LogLines.of(ConnectedClient.class)) {
            ConnectedClient.borrowed(bean);

            // the stall of design notes 10 is the bean's to avoid: nothing else tells its owner
            assertThat(log.lines()).singleElement().asString().startsWith("WARN ").contains("lazyInitialization",
                    "Redis Cluster", "40 s");
        } finally {
            bean.shutdown();
        }
    }

    private static Config configOf(int port) {
        Config config = new Config();
        config.useSingleServer().setAddress("redis://127.0.0.1:" + port).setRetryAttempts(0).setConnectTimeout(500);
        return config;
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static long redissonThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.isAlive() && thread.getName().startsWith("redisson-")).count();
    }
}
