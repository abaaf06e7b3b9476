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

import org.junit.jupiter.api.Test;
import org.redisson.config.Config;

import static org.assertj.core.api.Assertions.assertThat;

/** Every mode of Redisson's configuration gives its pool of master connections, a quarter of which may block. */
class ClientPoolTest {

    @Test
    void singleServer() {
        Config config = new Config();
        config.useSingleServer().setConnectionPoolSize(8);
        assertThat(ClientPool.masterConnections(config)).isEqualTo(8);
    }

    @Test
    void cluster() {
        Config config = new Config();
        config.useClusterServers().setMasterConnectionPoolSize(12);
        assertThat(ClientPool.masterConnections(config)).isEqualTo(12);
    }

    @Test
    void sentinel() {
        Config config = new Config();
        config.useSentinelServers().setMasterConnectionPoolSize(16);
        assertThat(ClientPool.masterConnections(config)).isEqualTo(16);
    }

    @Test
    void replicated() {
        Config config = new Config();
        config.useReplicatedServers().setMasterConnectionPoolSize(20);
        assertThat(ClientPool.masterConnections(config)).isEqualTo(20);
    }

    @Test
    void masterAndSlaves() {
        Config config = new Config();
        config.useMasterSlaveServers().setMasterConnectionPoolSize(24);
        assertThat(ClientPool.masterConnections(config)).isEqualTo(24);
    }

    @Test
    void redissonsDefault() {
        Config config = new Config();
        config.useSingleServer();
        assertThat(ClientPool.masterConnections(config)).isEqualTo(64);
    }

    @Test
    void aQuarterOfThePoolMayBlockAtMostTheGivenNumberAndNoneOfAPoolUnderFour() {
        int[][] poolAndBlocking = { { 1, 0 }, { 3, 0 }, { 4, 1 }, { 8, 2 }, { 31, 7 }, { 32, 8 }, { 40, 8 }, { 64, 8 } };
        for (int[] expected : poolAndBlocking) {
            Config config = new Config();
            config.useSingleServer().setConnectionPoolSize(expected[0]);
            assertThat(ClientPool.blockingReads(config, 8)).as("pool of %d", expected[0]).isEqualTo(expected[1]);
        }
    }
}
