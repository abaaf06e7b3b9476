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
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ShardTagsTest {

    @Test
    void slotsAreThoseRedisClusterComputes() {
        // the values CLUSTER KEYSLOT answers, and the CRC16 check value of the Redis Cluster specification
        assertThat(ShardTags.slot("foo")).isEqualTo(12182);
        assertThat(ShardTags.slot("hello")).isEqualTo(866);
        assertThat(ShardTags.slot("123456789")).isEqualTo(0x31C3 % 16384);
    }

    @Test
    void oneShardIsThePlainQueue() {
        assertThat(ShardTags.of("orders", 1)).containsExactly("orders");
        assertThat(ShardTags.shardOf("any-id", 1)).isZero();
    }

    @Test
    void shardsAreEvenlySpacedOverTheSlotsStartingAtTheQueuesOwn() {
        List<String> tags = ShardTags.of("orders", 3);
        int first = ShardTags.slot("orders");

        assertThat(tags).hasSize(3).startsWith("orders").doesNotHaveDuplicates();
        List<Integer> offsets = tags.stream().map(tag -> Math.floorMod(ShardTags.slot(tag) - first, 16384)).toList();
        assertThat(offsets).containsExactly(0, 16384 / 3, 2 * 16384 / 3);
    }

    @Test
    void everyMessageIdPicksOneShardAndAllShardsGetSome() {
        List<Integer> shards = IntStream.range(0, 300).mapToObj(i -> ShardTags.shardOf("order-" + i, 3)).toList();

        assertThat(shards).containsOnly(0, 1, 2);
        assertThat(ShardTags.shardOf("order-7", 3)).isEqualTo(ShardTags.shardOf("order-7", 3));
    }
}
