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

import java.nio.charset.StandardCharsets;

import org.redisson.client.RedisException;

/**
 * Arguments for and replies from Redis as the component's calls use them: arguments as UTF-8 bytes, integer replies as
 * {@code long}, bulk replies as UTF-8 text, error replies by their code.
 */
final class Replies {

    private Replies() {
    }

    static byte[] bytes(Object value) {
        return String.valueOf(value).getBytes(StandardCharsets.UTF_8);
    }

    static long toLong(Object value) {
        if (value instanceof Number number) {
            return number.longValue();
        }
        if (value instanceof byte[] data) {
            return Long.parseLong(new String(data, StandardCharsets.US_ASCII));
        }
        throw new IllegalStateException("Unexpected reply from Redis: " + value);
    }

    static String text(Object reply) {
        return new String((byte[]) reply, StandardCharsets.UTF_8);
    }

    /**
     * The error Redis replied, from its code on, or {@code null} when it has another code. Versions differ in what they
     * put before an error raised inside a script: nothing, {@code ERR }, or
     * {@code ERR Error running script (call to f_...): @user_script:80: }.
     */
    static String errorReply(RedisException e, String code) {
        String message = String.valueOf(e.getMessage());
        if (message.startsWith(code)) {
            return message;
        }
        int at = message.indexOf(" " + code);
        return at >= 0 ? message.substring(at + 1) : null;
    }
}
