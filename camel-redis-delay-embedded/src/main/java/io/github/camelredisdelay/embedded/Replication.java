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

/** What {@code INFO replication} of a master and its replica say about the link between them. */
final class Replication {

    private Replication() {
    }

    /**
     * True when the replica's link to the master is up with no sync in progress, and the master counts it as an online
     * replica.
     */
    static boolean inSync(RedisServerProcess master, RedisServerProcess replica) {
        String replicaInfo = replica.command("INFO", "replication");
        String masterInfo = master.command("INFO", "replication");
        String replicaAddress = "ip=" + replica.host() + ",port=" + replica.port() + ",";
        return Info.field(replicaInfo, "master_link_status").filter("up"::equals).isPresent()
                && Info.field(replicaInfo, "master_sync_in_progress").filter("0"::equals).isPresent()
                && masterInfo.lines().anyMatch(line -> line.startsWith("slave")
                        && line.contains(replicaAddress) && line.contains("state=online"));
    }
}
