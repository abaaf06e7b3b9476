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

import java.nio.charset.StandardCharsets;

/**
 * The Redisson codec the values of a migrated {@code RDelayedQueue} were written with ({@code migrateCodec} option): it
 * decides the body of a migrated message. Values are never deserialized as Java objects.
 */
public enum MigrateCodec {
    /** Any codec (Kryo, the default one, among them): the body is the value's bytes as the codec wrote them. */
    bytes,
    /** Redisson's {@code StringCodec}: the body is the value as a UTF-8 {@code String}. */
    string,
    /**
     * A JSON codec such as {@code JsonJacksonCodec}: the body is the JSON text (UTF-8) as the codec wrote it, with its
     * type information, if any.
     */
    json;

    /** The body of a migrated message whose legacy value is {@code value}. */
    Object body(byte[] value) {
        return this == bytes ? value : new String(value, StandardCharsets.UTF_8);
    }
}
