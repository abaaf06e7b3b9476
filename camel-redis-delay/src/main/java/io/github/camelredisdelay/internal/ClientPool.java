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

import org.redisson.config.BaseConfig;
import org.redisson.config.BaseMasterSlaveServersConfig;
import org.redisson.config.Config;
import org.redisson.config.SingleServerConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The size of a Redisson client's pool of connections to each master (Redis' only node, in single-server mode), as its
 * configuration gives it, and how many of them reads that block in Redis may hold.
 */
public final class ClientPool {

    private static final Logger LOG = LoggerFactory.getLogger(ClientPool.class);

    private ClientPool() {
    }

    /**
     * How many reads blocking in Redis may hold connections of {@code client}'s pool at once: a quarter of the pool, at
     * most {@code most}, none under 4; {@code most} for a client whose configuration cannot be read.
     */
    public static int blockingReads(ConnectedClient client, int most) {
        try {
            return blockingReads(client.config(), most);
        } catch (RuntimeException e) {
            LOG.debug("The pool size of Redis client {} cannot be read; {} reads may block in Redis", client, most, e);
            return most;
        }
    }

    static int blockingReads(Config config, int most) {
        return Math.min(most, masterConnections(config) / 4);
    }

    static int masterConnections(Config config) {
        BaseConfig<?> servers = ServerSettings.of(config);
        return servers instanceof SingleServerConfig single
                ? single.getConnectionPoolSize()
                : ((BaseMasterSlaveServersConfig<?>) servers).getMasterConnectionPoolSize();
    }
}
