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

import java.io.IOException;
import java.io.InputStream;
import java.io.Writer;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Date;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.OnDuplicate;
import io.github.camelredisdelay.RedisDelayConstants;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.Message;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.redisson.api.RStream;
import org.redisson.api.stream.StreamAddArgs;
import org.redisson.client.codec.ByteArrayCodec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The stored format of version 1 (docs/stored-format.md), frozen as golden fixtures: records and a stream entry written
 * by the scripts of this version, with a header of every supported type. Every later build must read them. The fixtures
 * are rewritten only on purpose, with {@code -Dfixtures.write=true}, when a format version is added.
 */
class StoredFormatTest extends RedisDelayTestSupport {

    private static final String FIXTURES = "/io/github/camelredisdelay/stored-format/v1.properties";
    private static final Path FIXTURES_SOURCE = Path.of("src/test/resources" + FIXTURES);
    private static final int HEAD_BYTES = 15;

    static Map<String, Object> everyHeaderType() {
        Map<String, Object> headers = new LinkedHashMap<>();
        headers.put("s", "text ✓");
        headers.put("j", Long.MIN_VALUE);
        headers.put("i", 42);
        headers.put("h", (short) -3);
        headers.put("b", (byte) 7);
        headers.put("d", 2.5);
        headers.put("f", 1.25f);
        headers.put("z", false);
        headers.put("t", new Date(123_456L));
        headers.put("n", Instant.ofEpochSecond(1, 999_999_999));
        headers.put("m", new BigDecimal("12.3400"));
        headers.put("g", new BigInteger("123456789012345678901234567890"));
        return headers;
    }

    /** Writes every fixture with this version's scripts and returns them by name, as stored bytes. */
    private Map<String, byte[]> writeWithTodaysCode() {
        QueueShard queue = new QueueShard(ConnectedClient.borrowed(redis()), QueueKeys.of(keyPrefix, "fixtures"));
        queue.group().create();
        queue.schedule("all-header-types", envelope("order-1 ✓", everyHeaderType()), DueTime.after(60_000), OnDuplicate.keep);
        queue.schedule("bytes-body", envelope(new byte[] { 0, 1, -128, 127 }, Map.of()), DueTime.after(60_000),
                OnDuplicate.keep);
        queue.schedule("null-body", envelope(null, Map.of()), DueTime.after(60_000), OnDuplicate.keep);
        queue.schedule("second-generation", envelope("v1", Map.of()), DueTime.after(0), OnDuplicate.keep);
        queue.group().readNew("writer", 10, null);
        queue.schedule("second-generation", envelope("v2", Map.of()), DueTime.after(60_000), OnDuplicate.replace);
        queue.schedule("retried", envelope("retry me", Map.of("attempt", 1)), DueTime.after(0), OnDuplicate.keep);
        Delivery first = queue.group().readNew("writer", 10, null).get(0);
        queue.group().retry("writer", first, 0, "java.lang.IllegalStateException: boom");
        await().atMost(Duration.ofSeconds(5)).until(() -> queue.transfer(10).toCompletableFuture().join().moved() == 1);

        Map<String, byte[]> fixtures = new TreeMap<>();
        Map<byte[], byte[]> records
                = redis().<byte[], byte[]>getMap(key("fixtures", "msg"), ByteArrayCodec.INSTANCE).readAllMap();
        records.forEach((id, record) -> fixtures.put("record." + new String(id, StandardCharsets.UTF_8), record));
        RStream<byte[], byte[]> ready = redis().getStream(key("fixtures", "ready"), ByteArrayCodec.INSTANCE);
        ready.range(org.redisson.api.stream.StreamMessageId.MIN, org.redisson.api.stream.StreamMessageId.MAX).values().stream()
                .filter(fields -> "retried".equals(text(fields, "i")))
                .forEach(fields -> fields.forEach((field, value) -> fixtures.put(
                        "entry.retried." + new String(field, StandardCharsets.UTF_8), value)));
        return fixtures;
    }

    private static String text(Map<byte[], byte[]> fields, String field) {
        return fields.entrySet().stream().filter(e -> Arrays.equals(e.getKey(), field.getBytes(StandardCharsets.UTF_8)))
                .map(e -> new String(e.getValue(), StandardCharsets.UTF_8)).findFirst().orElse(null);
    }

    private static byte[] envelope(Object body, Map<String, Object> headers) {
        return EnvelopeCodec.encode(new Envelope(body, headers));
    }

    private static Map<String, byte[]> frozen() throws IOException {
        Properties properties = new Properties();
        try (InputStream in = StoredFormatTest.class.getResourceAsStream(FIXTURES)) {
            assertThat(in).as("fixtures %s", FIXTURES).isNotNull();
            properties.load(in);
        }
        Map<String, byte[]> fixtures = new TreeMap<>();
        properties.stringPropertyNames()
                .forEach(name -> fixtures.put(name, HexFormat.of().parseHex(properties.getProperty(name))));
        return fixtures;
    }

    @Test
    void todaysCodeWritesTheFrozenFormat() throws IOException {
        Map<String, byte[]> written = writeWithTodaysCode();
        if (Boolean.getBoolean("fixtures.write")) {
            try (Writer out = Files.newBufferedWriter(FIXTURES_SOURCE, StandardCharsets.UTF_8)) {
                out.write(
                        "# Stored format version 1 (docs/stored-format.md), written by schedule.lua, transfer.lua and retry.lua.\n"
                          + "# Records: a 15-byte head (scheduled-at, due time, generation), then the envelope. Hexadecimal.\n");
                for (Map.Entry<String, byte[]> fixture : written.entrySet()) {
                    out.write(fixture.getKey() + "=" + HexFormat.of().formatHex(fixture.getValue()) + "\n");
                }
            }
        }
        Map<String, byte[]> frozen = frozen();

        assertThat(written.keySet()).isEqualTo(frozen.keySet());
        written.forEach((name, bytes) -> {
            byte[] expected = frozen.get(name);
            if (name.startsWith("record.") || name.endsWith(".r")) {
                // the head differs from run to run (the times, and the generation: the microsecond of the write);
                // the envelope may not
                assertThat(Arrays.copyOfRange(bytes, HEAD_BYTES, bytes.length)).as(name)
                        .isEqualTo(Arrays.copyOfRange(expected, HEAD_BYTES, expected.length));
            } else {
                assertThat(bytes).as(name).isEqualTo(expected);
            }
        });
    }

    @Test
    void everyFrozenRecordDecodes() throws IOException {
        Map<String, byte[]> frozen = frozen();

        byte[] all = frozen.get("record.all-header-types");
        assertThat(StoredRecord.dueAt(all) - StoredRecord.scheduledAt(all)).isEqualTo(60_000);
        // a message stored afresh: 0 in the first releases, the microsecond of its write since
        assertThat(StoredRecord.generation(all)).isBetween(0, 999);
        Envelope decoded = EnvelopeCodec.decode(StoredRecord.envelope(all));
        assertThat(decoded.body()).isEqualTo("order-1 ✓");
        assertThat(decoded.headers()).containsExactlyEntriesOf(everyHeaderType());
        assertThat((byte[]) EnvelopeCodec.decode(StoredRecord.envelope(frozen.get("record.bytes-body"))).body())
                .containsExactly(0, 1, -128, 127);
        assertThat(EnvelopeCodec.decode(StoredRecord.envelope(frozen.get("record.null-body"))))
                .isEqualTo(new Envelope(null, Map.of()));
        byte[] second = frozen.get("record.second-generation");
        // the replacement of a message stored afresh: the generation after that one's
        assertThat(StoredRecord.generation(second)).isBetween(1, 1000);
        assertThat(EnvelopeCodec.decode(StoredRecord.envelope(second)).body()).isEqualTo("v2");
    }

    @Test
    void theFrozenStreamEntryDecodesWithItsFailure() throws IOException {
        Map<String, byte[]> frozen = frozen();
        Map<String, byte[]> fields = Map.of("i", frozen.get("entry.retried.i"), "r", frozen.get("entry.retried.r"), "f",
                frozen.get("entry.retried.f"));

        Delivery delivery = StreamEntries.toDelivery(org.redisson.api.stream.StreamMessageId.MIN, fields, 1);

        assertThat(delivery.problem()).isNull();
        assertThat(delivery.messageId()).isEqualTo("retried");
        assertThat(delivery.deliveryCount()).isEqualTo(2);
        assertThat(delivery.lastError()).isEqualTo("java.lang.IllegalStateException: boom");
        assertThat(EnvelopeCodec.decode(delivery.envelope())).isEqualTo(new Envelope("retry me", Map.of("attempt", 1)));
    }

    /** Puts a stored record into a queue's stream, due, as transfer.lua would. */
    private void plantReady(String queue, String id, byte[] record) {
        redis().getMap(key(queue, "msg"), ByteArrayCodec.INSTANCE).put(id.getBytes(StandardCharsets.UTF_8), record);
        RStream<byte[], byte[]> ready = redis().getStream(key(queue, "ready"), ByteArrayCodec.INSTANCE);
        ready.add(StreamAddArgs.entries(Map.of("i".getBytes(StandardCharsets.UTF_8), id.getBytes(StandardCharsets.UTF_8),
                "r".getBytes(StandardCharsets.UTF_8), record)));
    }

    @Test
    void aFrozenMessageIsDeliveredWithItsHeaderTypes() throws Exception {
        List<Message> deliveries = new CopyOnWriteArrayList<>();
        plantReady("orders", "all-header-types", frozen().get("record.all-header-types"));

        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders").process(e -> deliveries.add(e.getMessage().copy()));
            }
        });

        await().atMost(Duration.ofSeconds(10)).until(() -> deliveries.size() == 1);
        Message delivered = deliveries.get(0);
        assertThat(delivered.getBody()).isEqualTo("order-1 ✓");
        everyHeaderType().forEach((name, value) -> assertThat(delivered.getHeader(name)).as(name).isEqualTo(value));
        assertThat(delivered.getHeader(RedisDelayConstants.MESSAGE_ID)).isEqualTo("all-header-types");
    }

    @Test
    void aMessageOfANewerFormatIsLeftForANewerNodeAndNeverDeadLettered() throws Exception {
        List<Message> deliveries = new CopyOnWriteArrayList<>();
        byte[] newer = frozen().get("record.null-body").clone();
        newer[HEAD_BYTES] = (byte) (EnvelopeCodec.VERSION + 1);
        plantReady("orders", "from-a-newer-node", newer);

        var producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders?visibilityTimeout=100&maxDeliveries=1")
                        .process(e -> deliveries.add(e.getMessage().copy()));
                from("redis-delay:orders.dead").process(e -> deliveries.add(e.getMessage().copy()));
            }
        }).createProducerTemplate();
        producer.sendBody("redis-delay:orders", "an ordinary message");

        await().atMost(Duration.ofSeconds(10)).until(() -> deliveries.size() == 1);
        assertThat(deliveries.get(0).getBody()).isEqualTo("an ordinary message");
        // several visibility timeouts: taken over again and again, never delivered, never dead-lettered
        await().pollDelay(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5))
                .until(() -> redis().getStream(key("orders", "ready")).size() == 1);
        assertThat(deliveries).hasSize(1);
        assertThat(redis().getMap(key("orders", "msg")).keySet()).containsExactly("from-a-newer-node");
        assertThat(redis().getMap(key("orders.dead", "msg")).isExists()).isFalse();
    }
}
