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
package io.github.camelredisdelay.sentinel;

import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A Redisson file that leaves {@code readMode} to Redisson's default for Sentinel, {@code SLAVE}, sends read-only
 * commands to a replica. What only the master can tell must still come from the master.
 */
class SentinelReadModeTest extends SentinelTestSupport {

    @Test
    void requireNoEvictionFailsTheStartOnAnEvictingMasterWhenRedissonReadsFromReplicas() throws Exception {
        // only the master evicts: a replica ignores maxmemory (replica-ignore-maxmemory yes) and gets the master's
        // deletions
        deployment().master().command("CONFIG", "SET", "maxmemory-policy", "allkeys-lru");
        assertThat(deployment().dataNodes()).filteredOn(node -> !node.equals(deployment().master()))
                .allSatisfy(replica -> assertThat(replica.command("CONFIG", "GET", "maxmemory-policy"))
                        .contains("noeviction"));
        CamelContext node = createNodeReadingReplicas(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:in").to("redis-delay:orders?requireNoEviction=true");
            }
        });

        assertThatThrownBy(node::start).as("start of a producer with requireNoEviction=true on an evicting master")
                .rootCause().isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("orders").hasMessageContaining("allkeys-lru");
    }
}
