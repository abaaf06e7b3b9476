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

import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.RedisConnection;
import org.redisson.connection.ClientConnectionsEntry;
import org.redisson.connection.ConnectionsHolder;
import org.redisson.connection.MasterSlaveEntry;

/**
 * Whether calls of a Redisson client to the master serving a key are waiting for a free connection of its pool right
 * now: a call left without an answer inside the client, not by Redis. Redisson fails such a call only once its retries
 * give up (with its defaults, four attempts of a {@code retryDelay} of 1-2 s each), so a caller that waits less sees no
 * failure to tell it by ({@link ClientShortage}). Calls waiting while the pool's connections are closed (Redis down,
 * the client reconnecting) do not count. Read from Redisson's internals (4.7); {@code false} when they cannot be read.
 */
final class ConnectionWaits {

    private ConnectionWaits() {
    }

    static boolean queuedFor(RedissonClient client, String key) {
        if (!(client instanceof Redisson redisson)) {
            return false;
        }
        try {
            MasterSlaveEntry entry = redisson.getCommandExecutor().getConnectionManager().getEntry(key);
            ClientConnectionsEntry master = entry == null ? null : entry.getEntry(entry.getClient());
            if (master == null || master.isFreezed()) {
                return false;
            }
            ConnectionsHolder<RedisConnection> pool = master.getConnectionsHolder();
            // while Redis is down its connections are closed and calls wait for a reconnect, not for a busy pool
            return pool.getFreeConnectionsCounter().queueSize() > 0 && !pool.getAllConnections().isEmpty()
                    && pool.getAllConnections().stream().allMatch(RedisConnection::isActive);
        } catch (RuntimeException | LinkageError e) {
            // another Redisson version, or a client shutting down
            return false;
        }
    }
}
