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

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.RedisDelayConstants;
import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.github.camelredisdelay.test.RedisServerExtension;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.apache.camel.Message;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RDelayedQueue;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.Codec;
import org.redisson.client.codec.StringCodec;
import org.redisson.client.handler.State;
import org.redisson.codec.JsonJacksonCodec;
import org.redisson.codec.Kryo5Codec;
import org.redisson.config.Config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Values written with Redisson's StringCodec, JsonJacksonCodec and default Kryo codec arrive as the migration guide
 * says: text for string and json, the codec's bytes for anything else (and for values that are no text, whatever the
 * option says), which a route decodes with its own codec.
 */
class LegacyCodecsTest extends RedisDelayTestSupport {

    /** The logger of the migration, a class of the component's package. */
    private static final String MIGRATION_LOG = "io.github.camelredisdelay.LegacyMigration";

    private final List<Message> delivered = new CopyOnWriteArrayList<>();

    @Test
    void stringCodecValuesArriveAsText() throws Exception {
        migrateOne(StringCodec.INSTANCE, "string", "order-42");
        assertThat(delivered.get(0).getBody()).isEqualTo("order-42");
    }

    @Test
    void jsonCodecValuesArriveAsTheJsonText() throws Exception {
        JsonJacksonCodec codec = new JsonJacksonCodec();
        Map<String, Object> order = Map.of("orderId", "42", "amount", 17);
        migrateOne(codec, "json", order);
        Object body = delivered.get(0).getBody();
        assertThat(body).isInstanceOf(String.class).isEqualTo(new String(encoded(codec, order), StandardCharsets.UTF_8));
        assertThat((String) body).contains("\"orderId\":\"42\"");
    }

    @Test
    void kryoValuesArriveAsTheCodecsBytesAndDecodeWithTheRoutesOwnCodec() throws Exception {
        Kryo5Codec codec = new Kryo5Codec();
        migrateOne(codec, "bytes", "order-43");
        byte[] body = delivered.get(0).getBody(byte[].class);
        assertThat(body).isEqualTo(encoded(codec, "order-43"));
        // what the migration guide tells a route that must read such values: decode with its own codec
        assertThat(codec.getValueDecoder().decode(Unpooled.wrappedBuffer(body), new State())).isEqualTo("order-43");
    }

    /**
     * {@code migrateCodec=string} with values Redisson's default codec (Kryo) wrote, an easy mistake when the values
     * were strings: Kryo's string encoding (the last character's high bit set) is no UTF-8 text. The migration removes
     * the legacy copies, so the codec's bytes must survive, not be replaced by U+FFFD in a body no codec can decode.
     */
    @Test
    void kryoValuesMigratedAsStringsKeepTheCodecsBytes() throws Exception {
        Kryo5Codec codec = new Kryo5Codec();
        migrateOne(codec, "string", "order-43");
        assertThat(delivered.get(0).getBody()).as("the bytes Redisson's codec wrote, which the migration removed")
                .isEqualTo(encoded(codec, "order-43"));
    }

    /**
     * The same mistake with numbers, as order ids often are: Kryo writes a small Long as a tab and one more ASCII
     * character, which is UTF-8 text. The route gets a String it cannot make sense of, so the warning must come all the
     * same; the String still holds the codec's bytes.
     */
    @Test
    void kryoNumbersMigratedAsStringsAreWarnedOfAndKeepTheCodecsBytes() throws Exception {
        Kryo5Codec codec = new Kryo5Codec();
        try (LogLines log = LogLines.of(MIGRATION_LOG)) {
            migrateOne(codec, "string", 42L);

            assertThat(log.lines()).anySatisfy(line -> assertThat(line).startsWith("WARN").contains("migrateCodec=string"));
        }
        assertThat(delivered.get(0).getBody(String.class).getBytes(StandardCharsets.UTF_8))
                .isEqualTo(encoded(codec, 42L));
    }

    @Test
    void textWithoutControlCharactersIsNotWarnedOf() throws Exception {
        try (LogLines log = LogLines.of(MIGRATION_LOG)) {
            migrateOne(StringCodec.INSTANCE, "string", "order-42\ttab\r\nand lines");

            assertThat(log.lines()).noneSatisfy(line -> assertThat(line).startsWith("WARN"));
        }
    }

    @SuppressWarnings("deprecation")
    private void migrateOne(Codec codec, String migrateCodec, Object value) throws Exception {
        String legacy = "legacy-" + UUID.randomUUID().toString().substring(0, 8);
        Config config = new Config();
        config.setCodec(codec);
        config.useSingleServer().setAddress(RedisServerExtension.redisUrl());
        RedissonClient old = Redisson.create(config);
        try {
            RDelayedQueue<Object> delayed = old.getDelayedQueue(old.getBlockingQueue(legacy));
            delayed.offer(value, 300, TimeUnit.MILLISECONDS);
            startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:orders?migrateFrom=" + legacy + "&migrateCodec=" + migrateCodec)
                            .process(exchange -> delivered.add(exchange.getIn().copy()));
                }
            });
            await().atMost(Duration.ofSeconds(5)).until(() -> !delivered.isEmpty());
            assertThat(delivered.get(0).getHeader(RedisDelayConstants.MIGRATED_FROM)).isEqualTo(legacy);
        } finally {
            old.shutdown();
        }
    }

    private static byte[] encoded(Codec codec, Object value) throws Exception {
        ByteBuf buffer = codec.getValueEncoder().encode(value);
        try {
            return ByteBufUtil.getBytes(buffer);
        } finally {
            buffer.release();
        }
    }
}
