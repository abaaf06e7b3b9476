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

import java.util.List;

import io.github.camelredisdelay.embedded.ClusterNode.SlotRange;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ClusterNodeTest {

    @Test
    void masterLineOfRedis62GivesPortFlagsAndSlots() {
        ClusterNode node = ClusterNode.parse("a3d4 127.0.0.1:17001@27001 myself,master - 0 1795317063000 1 connected "
                                             + "0-5460 5999");

        assertThat(node.id()).isEqualTo("a3d4");
        assertThat(node.port()).isEqualTo(17001);
        assertThat(node.isMaster()).isTrue();
        assertThat(node.isFailing()).isFalse();
        assertThat(node.slots()).containsExactly(new SlotRange(0, 5460), new SlotRange(5999, 5999));
        assertThat(node.serves(5460)).isTrue();
        assertThat(node.serves(5999)).isTrue();
        assertThat(node.serves(5461)).isFalse();
    }

    @Test
    void replicaLineOfRedis7WithHostnameNamesItsMaster() {
        ClusterNode node = ClusterNode.parse("d94f 127.0.0.1:17004@27004,node-4 slave a3d4 0 1795317063029 1 connected");

        assertThat(node.port()).isEqualTo(17004);
        assertThat(node.isMaster()).isFalse();
        assertThat(node.masterId()).isEqualTo("a3d4");
        assertThat(node.slots()).isEmpty();
    }

    @Test
    void failedAndSuspectedNodesAreFailing() {
        List<ClusterNode> nodes = ClusterNode.parseAll("""
                a3d4 127.0.0.1:17001@27001 master,fail - 1 2 1 disconnected
                bb00 127.0.0.1:17003@27003 master,fail? - 1 2 3 connected 10923-16383
                """);

        assertThat(nodes).hasSize(2).allMatch(ClusterNode::isFailing);
    }

    @Test
    void aBusLinkIsUpOnceConnectedWithNoPingWaitingAndAPongReceived() {
        List<ClusterNode> nodes = ClusterNode.parseAll("""
                a3d4 127.0.0.1:17001@27001 master - 0 1795317063000 1 disconnected 0-5460
                a3d5 127.0.0.1:17002@27002 master - 1795317063500 1795317063000 2 connected 5461-10922
                a3d6 127.0.0.1:17004@27004 slave bb00 0 0 3 connected
                a3d7 127.0.0.1:17005@27005 slave a3d4 0 1795317063000 1 connected
                bb00 127.0.0.1:17003@27003 myself,master - 0 0 3 connected 10923-16383
                """);

        assertThat(nodes).extracting(ClusterNode::linked).containsExactly(false, false, false, true, true);
    }

    @Test
    void slotsInMigrationAreSkipped() {
        ClusterNode node = ClusterNode.parse("bb00 127.0.0.1:17003@27003 master - 0 0 3 connected 10923-16383 "
                                             + "[93->-e7d1]");

        assertThat(node.slots()).containsExactly(new SlotRange(10923, 16383));
    }

    @Test
    void lineWithoutAnAddressIsRejected() {
        assertThatThrownBy(() -> ClusterNode.parse("not a cluster nodes line"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a cluster nodes line");
    }
}
