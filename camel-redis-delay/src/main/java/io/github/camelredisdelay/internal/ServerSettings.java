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
import org.redisson.config.Config;

/** The part of a Redisson configuration that describes its servers, whichever of its modes it uses. */
final class ServerSettings {

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
}
