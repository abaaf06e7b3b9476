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

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Turns an {@link Envelope} into bytes and back. The format is compact, versioned by its first byte, and never uses
 * Java serialization, so anything read from Redis can be decoded safely.
 *
 * <pre>
 * envelope := version(1) body headerCount(u16) header*
 * body     := 0 | 1 length(i32) utf8 | 2 length(i32) bytes          (null, String, byte[])
 * header   := nameLength(u16) utf8 type(1) value
 * </pre>
 *
 * Header types: S String, J Long, I Integer, H Short, B Byte, D Double, F Float, Z Boolean, T Date (epoch ms), N
 * Instant (seconds, nanos), M BigDecimal (text), G BigInteger (text).
 */
public final class EnvelopeCodec {

    /** The types of header values stored with their type (a {@code Date} subclass as a {@code Date}). */
    private static final List<Class<?>> STORED_HEADER_CLASSES = List.of(String.class, Long.class, Integer.class,
            Short.class, Byte.class, Double.class, Float.class, BigDecimal.class, BigInteger.class, Boolean.class,
            Date.class, Instant.class);

    /** The header value types {@link #isSupportedHeaderValue} accepts, as messages name them. */
    public static final String STORED_HEADER_TYPES
            = STORED_HEADER_CLASSES.stream().map(Class::getSimpleName).collect(Collectors.joining(", "));

    /** The format written by this version; docs/stored-format.md describes it and the compatibility rule. */
    public static final byte VERSION = 1;
    /** Most headers of one message: their count is stored in two bytes. */
    public static final int MAX_HEADERS = 0xFFFF;
    /** Most UTF-8 bytes of a header name: its length is stored in two bytes. */
    public static final int MAX_HEADER_NAME_BYTES = 0xFFFF;

    private static final byte BODY_NULL = 0;
    private static final byte BODY_STRING = 1;
    private static final byte BODY_BYTES = 2;

    private EnvelopeCodec() {
    }

    /**
     * Whether {@code envelope} was written in a later format than this version reads (a newer node wrote it during a
     * rolling upgrade): such a message is left for a node that reads it, never treated as corrupt.
     */
    public static boolean isNewerFormat(byte[] envelope) {
        return envelope.length > 0 && Byte.toUnsignedInt(envelope[0]) > VERSION;
    }

    /**
     * Whether a header value of this type can be stored with its type.
     */
    public static boolean isSupportedHeaderValue(Object value) {
        for (Class<?> stored : STORED_HEADER_CLASSES) {
            if (stored.isInstance(value)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Encodes an envelope.
     *
     * @throws HeaderLimitException when its headers do not fit: more than {@value #MAX_HEADERS}, or a name longer than
     *                              {@value #MAX_HEADER_NAME_BYTES} bytes
     */
    public static byte[] encode(Envelope envelope) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            writeBody(out, envelope.body());
            Map<String, Object> headers = envelope.headers();
            if (headers.size() > MAX_HEADERS) {
                throw new HeaderLimitException(
                        headers.size() + " headers, more than a message can hold (at most " + MAX_HEADERS + ")");
            }
            out.writeShort(headers.size());
            for (Map.Entry<String, Object> header : headers.entrySet()) {
                writeShortString(out, header.getKey());
                writeHeaderValue(out, header.getKey(), header.getValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * Decodes an envelope.
     *
     * @throws CorruptEnvelopeException when the bytes are not an envelope of a known version
     */
    public static Envelope decode(byte[] data) {
        ByteBuffer in = ByteBuffer.wrap(data);
        try {
            byte version = in.get();
            if (version != VERSION) {
                throw new CorruptEnvelopeException(
                        "unknown envelope format version " + version + " (this reader knows "
                                                   + VERSION + ")");
            }
            Object body = readBody(in);
            int count = Short.toUnsignedInt(in.getShort());
            Map<String, Object> headers = new LinkedHashMap<>(Math.max(4, count * 2));
            for (int i = 0; i < count; i++) {
                String name = readShortString(in);
                headers.put(name, readHeaderValue(in));
            }
            if (in.hasRemaining()) {
                throw new CorruptEnvelopeException(in.remaining() + " unexpected bytes after the last header");
            }
            return new Envelope(body, headers);
        } catch (CorruptEnvelopeException e) {
            throw e;
        } catch (BufferUnderflowException | IllegalArgumentException | ArithmeticException | DateTimeException e) {
            throw new CorruptEnvelopeException("truncated or malformed envelope: " + e, e);
        }
    }

    private static void writeBody(DataOutputStream out, Object body) throws IOException {
        if (body == null) {
            out.writeByte(BODY_NULL);
        } else if (body instanceof String text) {
            out.writeByte(BODY_STRING);
            writeBytes(out, text.getBytes(StandardCharsets.UTF_8));
        } else if (body instanceof byte[] data) {
            out.writeByte(BODY_BYTES);
            writeBytes(out, data);
        } else {
            throw new IllegalArgumentException("body must be null, String or byte[], not " + body.getClass().getName());
        }
    }

    private static Object readBody(ByteBuffer in) {
        byte kind = in.get();
        return switch (kind) {
            case BODY_NULL -> null;
            case BODY_STRING -> new String(readBytes(in), StandardCharsets.UTF_8);
            case BODY_BYTES -> readBytes(in);
            default -> throw new CorruptEnvelopeException("unknown body kind " + kind);
        };
    }

    private static void writeHeaderValue(DataOutputStream out, String name, Object value) throws IOException {
        if (value instanceof String text) {
            out.writeByte('S');
            writeBytes(out, text.getBytes(StandardCharsets.UTF_8));
        } else if (value instanceof Long number) {
            out.writeByte('J');
            out.writeLong(number);
        } else if (value instanceof Integer number) {
            out.writeByte('I');
            out.writeInt(number);
        } else if (value instanceof Short number) {
            out.writeByte('H');
            out.writeShort(number);
        } else if (value instanceof Byte number) {
            out.writeByte('B');
            out.writeByte(number);
        } else if (value instanceof Double number) {
            out.writeByte('D');
            out.writeDouble(number);
        } else if (value instanceof Float number) {
            out.writeByte('F');
            out.writeFloat(number);
        } else if (value instanceof Boolean flag) {
            out.writeByte('Z');
            out.writeBoolean(flag);
        } else if (value instanceof Date date) {
            out.writeByte('T');
            out.writeLong(date.getTime());
        } else if (value instanceof Instant instant) {
            out.writeByte('N');
            out.writeLong(instant.getEpochSecond());
            out.writeInt(instant.getNano());
        } else if (value instanceof BigDecimal number) {
            out.writeByte('M');
            writeBytes(out, number.toString().getBytes(StandardCharsets.US_ASCII));
        } else if (value instanceof BigInteger number) {
            out.writeByte('G');
            writeBytes(out, number.toString().getBytes(StandardCharsets.US_ASCII));
        } else {
            throw new IllegalArgumentException(
                    "header " + name + " has unsupported type "
                                               + (value == null ? "null" : value.getClass().getName()));
        }
    }

    private static Object readHeaderValue(ByteBuffer in) {
        byte type = in.get();
        return switch (type) {
            case 'S' -> new String(readBytes(in), StandardCharsets.UTF_8);
            case 'J' -> in.getLong();
            case 'I' -> in.getInt();
            case 'H' -> in.getShort();
            case 'B' -> in.get();
            case 'D' -> in.getDouble();
            case 'F' -> in.getFloat();
            case 'Z' -> in.get() != 0;
            case 'T' -> new Date(in.getLong());
            case 'N' -> Instant.ofEpochSecond(in.getLong(), in.getInt());
            case 'M' -> new BigDecimal(new String(readBytes(in), StandardCharsets.US_ASCII));
            case 'G' -> new BigInteger(new String(readBytes(in), StandardCharsets.US_ASCII));
            default -> throw new CorruptEnvelopeException("unknown header type " + type);
        };
    }

    private static void writeBytes(DataOutputStream out, byte[] data) throws IOException {
        out.writeInt(data.length);
        out.write(data);
    }

    private static byte[] readBytes(ByteBuffer in) {
        int length = in.getInt();
        if (length < 0 || length > in.remaining()) {
            throw new CorruptEnvelopeException("length " + length + " exceeds the " + in.remaining() + " bytes left");
        }
        byte[] data = new byte[length];
        in.get(data);
        return data;
    }

    private static void writeShortString(DataOutputStream out, String text) throws IOException {
        byte[] data = text.getBytes(StandardCharsets.UTF_8);
        if (data.length > MAX_HEADER_NAME_BYTES) {
            throw new HeaderLimitException(
                    "a header name of " + data.length + " bytes (" + text.substring(0, 40) + "...), longer than a message "
                                           + "can hold (at most " + MAX_HEADER_NAME_BYTES + " bytes in UTF-8)");
        }
        out.writeShort(data.length);
        out.write(data);
    }

    private static String readShortString(ByteBuffer in) {
        int length = Short.toUnsignedInt(in.getShort());
        if (length > in.remaining()) {
            throw new CorruptEnvelopeException("name length " + length + " exceeds the " + in.remaining() + " bytes left");
        }
        byte[] data = new byte[length];
        in.get(data);
        return new String(data, StandardCharsets.UTF_8);
    }
}
