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

import java.util.List;
import java.util.stream.Stream;

import org.redisson.config.BaseConfig;
import org.redisson.config.ClusterServersConfig;
import org.redisson.config.Config;
import org.redisson.config.MasterSlaveServersConfig;
import org.redisson.config.ReplicatedServersConfig;
import org.redisson.config.SentinelServersConfig;
import org.redisson.config.SingleServerConfig;

/** The part of a Redisson configuration that describes its servers, whichever of its modes it uses. */
public final class ServerSettings {

    private ServerSettings() {
    }

    /** The single server's, the cluster's, the Sentinel's, the replicated or the master-and-replicas settings. */
    static BaseConfig<?> of(Config config) {
        if (config.isSingleConfig()) {
            return config.useSingleServer();
        }
        if (config.isClusterConfig()) {
            return config.useClusterServers();
        }
        if (config.isSentinelConfig()) {
            return config.useSentinelServers();
        }
        // Config tells the other two modes apart only by refusing the one it is not in
        try {
            return config.useReplicatedServers();
        } catch (IllegalStateException notReplicated) {
            return config.useMasterSlaveServers();
        }
    }

    /**
     * The addresses {@code config} names, as given: the single server's, the cluster's or the replicated nodes', the
     * Sentinels', or the master's followed by its replicas'. A configuration without a mode is given one: pass a copy
     * of one that may have none.
     */
    public static List<String> addresses(Config config) {
        BaseConfig<?> servers = of(config);
        if (servers instanceof SingleServerConfig single) {
            return Stream.ofNullable(single.getAddress()).toList();
        }
        if (servers instanceof ClusterServersConfig cluster) {
            return cluster.getNodeAddresses();
        }
        if (servers instanceof SentinelServersConfig sentinels) {
            return sentinels.getSentinelAddresses();
        }
        if (servers instanceof ReplicatedServersConfig replicated) {
            return replicated.getNodeAddresses();
        }
        MasterSlaveServersConfig masterAndReplicas = (MasterSlaveServersConfig) servers;
        return Stream.concat(Stream.ofNullable(masterAndReplicas.getMasterAddress()),
                masterAndReplicas.getSlaveAddresses().stream()).toList();
    }
}
