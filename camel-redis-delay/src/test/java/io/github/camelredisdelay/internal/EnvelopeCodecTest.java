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

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EnvelopeCodecTest {

    @Test
    void everySupportedHeaderTypeRoundTripsWithItsType() {
        Map<String, Object> headers = StoredFormatTest.everyHeaderType();

        Envelope decoded = EnvelopeCodec.decode(EnvelopeCodec.encode(new Envelope("body", headers)));

        assertThat(decoded.body()).isEqualTo("body");
        assertThat(decoded.headers()).containsExactlyEntriesOf(headers);
    }

    @Test
    void bytesAndNullBodiesKeepTheirKind() {
        byte[] bytes = { 0, 1, -128, 127 };
        assertThat((byte[]) EnvelopeCodec.decode(EnvelopeCodec.encode(new Envelope(bytes, Map.of()))).body()).isEqualTo(bytes);
        assertThat(EnvelopeCodec.decode(EnvelopeCodec.encode(new Envelope(null, Map.of()))).body()).isNull();
        assertThat(EnvelopeCodec.decode(EnvelopeCodec.encode(new Envelope("", Map.of()))).body()).isEqualTo("");
    }

    @Test
    void firstByteIsTheFormatVersion() {
        assertThat(EnvelopeCodec.encode(new Envelope("x", Map.of()))[0]).isEqualTo(EnvelopeCodec.VERSION);
    }

    @Test
    void unknownVersionIsRejectedNamingIt() {
        byte[] data = EnvelopeCodec.encode(new Envelope("x", Map.of()));
        data[0] = 9;

        assertThatThrownBy(() -> EnvelopeCodec.decode(data)).isInstanceOf(CorruptEnvelopeException.class)
                .hasMessageContaining("unknown envelope format version 9");
    }

    @Test
    void everyTruncationIsRejectedAsCorrupt() {
        byte[] data = EnvelopeCodec.encode(new Envelope("body", Map.of("k", "v", "n", 5L)));
        for (int length = 0; length < data.length; length++) {
            byte[] truncated = Arrays.copyOf(data, length);
            assertThatThrownBy(() -> EnvelopeCodec.decode(truncated)).as("length %d", length)
                    .isInstanceOf(CorruptEnvelopeException.class);
        }
    }

    @Test
    void trailingGarbageIsRejectedAsCorrupt() {
        byte[] data = EnvelopeCodec.encode(new Envelope("body", Map.of()));
        byte[] longer = Arrays.copyOf(data, data.length + 1);

        assertThatThrownBy(() -> EnvelopeCodec.decode(longer)).isInstanceOf(CorruptEnvelopeException.class)
                .hasMessageContaining("unexpected bytes");
    }

    @Test
    void hugeLengthFieldIsRejectedWithoutAllocatingIt() {
        byte[] data = { EnvelopeCodec.VERSION, 2, 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff };

        assertThatThrownBy(() -> EnvelopeCodec.decode(data)).isInstanceOf(CorruptEnvelopeException.class)
                .hasMessageContaining("exceeds");
    }

    @Test
    void anInstantOutOfRangeIsRejectedAsCorrupt() {
        byte[] data = EnvelopeCodec.encode(new Envelope(null, Map.of("t", Instant.EPOCH)));
        // version, body kind, header count, name length and "t", type 'N': then the epoch seconds
        int seconds = 1 + 1 + 2 + 2 + 1 + 1;
        assertThat(data[seconds - 1]).isEqualTo((byte) 'N');
        ByteBuffer.wrap(data, seconds, Long.BYTES).putLong(Long.MAX_VALUE);

        assertThatThrownBy(() -> EnvelopeCodec.decode(data)).isInstanceOf(CorruptEnvelopeException.class);
    }

    @Test
    void onlyValuesOfKnownTypesAreSupported() {
        assertThat(EnvelopeCodec.isSupportedHeaderValue("x")).isTrue();
        assertThat(EnvelopeCodec.isSupportedHeaderValue(new Object())).isFalse();
        assertThat(EnvelopeCodec.isSupportedHeaderValue(java.util.List.of())).isFalse();
    }
}
