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
package io.github.camelredisdelay.migration;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.redisson.api.RScript;
import org.redisson.client.codec.ByteArrayCodec;
import org.redisson.client.codec.StringCodec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Redisson changed how it packs a message into its timeout set in 3.21.1: before, a random number (a Lua double) and
 * the value ({@code dLc0}); since, a random id of its own length and the value ({@code Bc0Lc0}). Old producers may
 * still write the old layout while a migration runs; both are migrated with their values, and a member in neither
 * layout is migrated whole instead of stopping the migration.
 */
class OldRedissonFormatTest extends RedisDelayTestSupport {

    private final List<String> delivered = new CopyOnWriteArrayList<>();

    @Test
    void membersInTheLayoutsOfOldAndNewRedissonVersionsAreMigratedWithTheirValues() throws Exception {
        String legacy = "legacy-" + UUID.randomUUID().toString().substring(0, 8);
        LegacyKeys keys = new LegacyKeys(legacy, keyPrefix);
        offer(keys, "struct.pack('dLc0', 0.5, string.len(ARGV[2]), ARGV[2])", "order-before-3.21.1");
        offer(keys, "struct.pack('Bc0Lc0', 8, 'random-8', string.len(ARGV[2]), ARGV[2])", "order-since-3.21.1");
        offer(keys, "struct.pack('Bc0Lc0', 16, 'an-id-of-16-byte', string.len(ARGV[2]), ARGV[2])",
                "order-of-a-client-with-longer-ids");
        offer(keys, "ARGV[2]", "a member in neither layout");

        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders?migrateFrom=" + legacy + "&migrateCodec=string")
                        .process(exchange -> delivered.add(exchange.getIn().getBody(String.class)));
            }
        });

        await().atMost(Duration.ofSeconds(10)).until(() -> delivered.size() >= 4);
        assertThat(delivered).containsExactlyInAnyOrder(
                "order-before-3.21.1", "order-since-3.21.1", "order-of-a-client-with-longer-ids",
                "a member in neither layout");
        await().atMost(Duration.ofSeconds(5)).until(() -> keys.left(redis()) == 0);
    }

    @Test
    void anOldLayoutMemberWhoseRandomNumberReadsAsANewIdLengthIsMigratedWithItsWholeValue() throws Exception {
        String legacy = "legacy-" + UUID.randomUUID().toString().substring(0, 8);
        LegacyKeys keys = new LegacyKeys(legacy, keyPrefix);
        // a value ending in eight zero bytes (a serialized 0L field, say), and an old member whose random number's
        // first byte is the value's length plus 7: read as the new layout, its id would end where the member does
        String value = "order-ending-in-a-zero-long" + "\0".repeat(8);
        ByteBuffer member = ByteBuffer.allocate(16 + value.length()).order(ByteOrder.LITTLE_ENDIAN);
        member.putDouble(Double.longBitsToDouble(Double.doubleToLongBits(0.5) & ~0xFFL | value.length() + 7));
        member.putLong(value.length()).put(value.getBytes(StandardCharsets.ISO_8859_1));
        redis().getScript(ByteArrayCodec.INSTANCE).eval(RScript.Mode.READ_WRITE,
                "redis.call('zadd', KEYS[1], 1000, ARGV[1]); redis.call('rpush', KEYS[2], ARGV[1])",
                RScript.ReturnType.VALUE, List.of(keys.timeout(), keys.order()), (Object) member.array());

        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders?migrateFrom=" + legacy + "&migrateCodec=string")
                        .process(exchange -> delivered.add(exchange.getIn().getBody(String.class)));
            }
        });

        await().atMost(Duration.ofSeconds(10)).until(() -> !delivered.isEmpty());
        assertThat(delivered).containsExactly(value);
    }

    /** Writes a member as Redisson's offer does, packed by {@code pack} (Lua, value in ARGV[2]), due long ago. */
    private void offer(LegacyKeys keys, String pack, String value) {
        redis().getScript(StringCodec.INSTANCE).eval(RScript.Mode.READ_WRITE,
                "local member = " + pack + "; redis.call('zadd', KEYS[1], ARGV[1], member); "
                                                                              + "redis.call('rpush', KEYS[2], member)",
                RScript.ReturnType.VALUE, List.of(keys.timeout(), keys.order()), "1000", value);
    }
}
