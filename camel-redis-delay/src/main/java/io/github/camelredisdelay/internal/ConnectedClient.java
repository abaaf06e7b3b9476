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

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.RedisConnectionException;
import org.redisson.config.Config;

/**
 * A Redisson client that the component uses only once it has connected, and whose first connection is made by one
 * caller at a time.
 * <p>
 * A client with lazy initialization (the component's own, or a bean built so) connects at its first call. When that
 * connection fails, Redisson 4.7 lets the next caller try again, and a caller that tries while another one's failed try
 * is still returning can wait for ever on its own try (on a cluster, where the retry tears down what the failed try set
 * up), and with it every later call of the client. Callers waiting here in turn never overlap: each either finds the
 * client connected or makes one try itself, whose failure it throws.
 */
public final class ConnectedClient {

    private final RedissonClient client;
    private final boolean owned;
    private final ReentrantLock firstConnection = new ReentrantLock();
    private volatile boolean connected;

    private ConnectedClient(RedissonClient client, boolean owned) {
        this.client = client;
        this.owned = owned;
    }

    /** A client the component created: {@link #shutdown} shuts it down. */
    public static ConnectedClient owned(RedissonClient client) {
        return new ConnectedClient(client, true);
    }

    /** A client the application gave (a bean): the application shuts it down, never {@link #shutdown}. */
    public static ConnectedClient borrowed(RedissonClient client) {
        return new ConnectedClient(client, false);
    }

    /**
     * The client, connected: the first callers make its first connection, one at a time.
     *
     * @throws org.redisson.client.RedisException when the client cannot connect (Redis is down, say), or the caller is
     *                                            interrupted while another caller tries
     */
    public RedissonClient get() {
        if (!connected) {
            connect();
        }
        return client;
    }

    private void connect() {
        try {
            firstConnection.lockInterruptibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisConnectionException("Interrupted while waiting for the client's first connection", e);
        }
        try {
            if (!connected) {
                if (client instanceof Redisson redisson) {
                    // a client with lazy initialization connects here, or throws why it cannot
                    redisson.getCommandExecutor().getConnectionManager().getEntrySet();
                }
                connected = true;
            }
        } finally {
            firstConnection.unlock();
        }
    }

    /** The client's configuration, read without connecting. */
    public Config config() {
        return client.getConfig();
    }

    /** Shuts the client down if the component created it, waiting at most {@code timeoutMillis}. */
    public void shutdown(long timeoutMillis) {
        if (owned) {
            client.shutdown(0, timeoutMillis, TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public String toString() {
        return client.toString();
    }
}
