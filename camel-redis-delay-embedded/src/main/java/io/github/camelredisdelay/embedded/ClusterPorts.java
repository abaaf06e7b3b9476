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
package io.github.camelredisdelay.embedded;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Chooses ports for cluster nodes. A node also listens on its cluster bus port, its client port plus 10000 (Redis 6.2
 * has no setting for it), so both must be free and below 65536. The ports are drawn from below Linux' ephemeral range
 * (32768 and up), so neither collides with the local end of an outgoing connection.
 */
final class ClusterPorts {

    /** Redis' fixed distance from a node's client port to its cluster bus port. */
    static final int BUS_PORT_OFFSET = 10_000;

    private static final int LOWEST = 20_000;
    private static final int HIGHEST = 32_767 - BUS_PORT_OFFSET;
    private static final int ATTEMPTS = 200;

    private ClusterPorts() {
    }

    /**
     * A client port that, with its bus port, is free on loopback right now; another process may still take it before
     * the node binds it, so the caller retries with a new one when the node does not start.
     *
     * @throws IllegalStateException when no free pair turns up after a bounded number of tries
     */
    static int pickFree() {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(LOWEST, HIGHEST + 1);
            if (isFree(port) && isFree(port + BUS_PORT_OFFSET)) {
                return port;
            }
        }
        throw new IllegalStateException(
                "No free pair of client and cluster bus ports (port, port + "
                                        + BUS_PORT_OFFSET + ") with the client port in " + LOWEST + "-" + HIGHEST + " after "
                                        + ATTEMPTS
                                        + " tries");
    }

    private static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getByName(ServerLaunch.HOST))) {
            return true;
        } catch (IOException taken) {
            return false;
        }
    }
}
