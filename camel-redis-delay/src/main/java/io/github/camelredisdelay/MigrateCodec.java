package io.github.camelredisdelay;

import java.nio.charset.StandardCharsets;

/**
 * The Redisson codec the values of a migrated {@code RDelayedQueue} were written with ({@code migrateCodec}
 * option): it decides the body of a migrated message. Values are never deserialized as Java objects.
 */
public enum MigrateCodec {
    /** Any codec (Kryo, the default one, among them): the body is the value's bytes as the codec wrote them. */
    bytes,
    /** Redisson's {@code StringCodec}: the body is the value as a UTF-8 {@code String}. */
    string,
    /**
     * A JSON codec such as {@code JsonJacksonCodec}: the body is the JSON text (UTF-8) as the codec wrote it, with
     * its type information, if any.
     */
    json;

    /** The body of a migrated message whose legacy value is {@code value}. */
    Object body(byte[] value) {
        return this == bytes ? value : new String(value, StandardCharsets.UTF_8);
    }
}
