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
package io.github.camelredisdelay;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The Redisson codec the values of a migrated {@code RDelayedQueue} were written with ({@code migrateCodec} option): it
 * decides the body of a migrated message. Values are never deserialized as Java objects.
 */
public enum MigrateCodec {
    /** Any codec (Kryo, the default one, among them): the body is the value's bytes as the codec wrote them. */
    bytes,
    /**
     * Redisson's {@code StringCodec}: the body is the value as a UTF-8 {@code String} (a value that is not UTF-8 keeps
     * its bytes, with a warning).
     */
    string,
    /**
     * A JSON codec such as {@code JsonJacksonCodec}: the body is the JSON text (UTF-8) as the codec wrote it, with its
     * type information, if any.
     */
    json;

    /**
     * The body of a migrated message whose legacy value is {@code value}: for {@code string} and {@code json}, a value
     * that is not UTF-8 text (a binary codec's, such as Kryo's, chosen by mistake) keeps its bytes, as with
     * {@code bytes}, rather than have them replaced by U+FFFD.
     */
    Object body(byte[] value) {
        if (this == bytes) {
            return value;
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(value)).toString();
        } catch (CharacterCodingException notText) {
            return value;
        }
    }

    /**
     * Why {@code body} ({@link #body}'s) does not look written with this codec, for a warning; {@code null} when it
     * does. For {@code string} and {@code json}: a value that is no UTF-8 text, or text that starts with a control
     * character (Kryo writes a value's class first, a small number: a Long is a tab and one more character) or holds
     * one other than tab, line feed and carriage return.
     */
    String mismatch(Object body) {
        if (this == bytes) {
            return null;
        }
        if (body instanceof byte[]) {
            return "a value is not UTF-8 text, so it was not written with the codec migrateCodec=" + this + " names; it is "
                   + "delivered with its bytes as the body, as with migrateCodec=bytes (Redisson's default codec, Kryo, "
                   + "writes binary values)";
        }
        String text = (String) body;
        boolean controls = !text.isEmpty() && Character.isISOControl(text.charAt(0))
                || text.chars().anyMatch(c -> Character.isISOControl(c) && c != '\t' && c != '\n' && c != '\r');
        return controls
                ? "a value is UTF-8 text that starts with or holds control characters, as a binary codec's values do "
                  + "(Kryo, Redisson's default, writes a Long as a tab and one more character), so it may not have been "
                  + "written with the codec migrateCodec=" + this + " names; it is delivered as that text, whose UTF-8 "
                  + "bytes are the value's (migrateCodec=bytes delivers the bytes)"
                : null;
    }
}
