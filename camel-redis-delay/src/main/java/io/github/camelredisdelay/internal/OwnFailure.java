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

import org.redisson.client.RedisException;

/**
 * A failure that several callers share (one script call that carried the schedules of several exchanges, one check of
 * the queue that several waited for), made one caller's own: an exception of the same type, message and stack trace,
 * caused by the shared one. Camel's error handler changes the exception it handles (it adds the exception the exchange
 * caught before as a suppressed one), and on a shared exception that would show on every other exchange's failure too.
 * An exception whose type has no public constructor taking a message (and a cause) stays shared.
 */
final class OwnFailure {

    private OwnFailure() {
    }

    /** A copy of {@code shared} of the same type, caused by it; {@code shared} itself when none can be made. */
    static Throwable of(Throwable shared) {
        Throwable own = copy(shared, shared.getMessage());
        return own != null ? own : shared;
    }

    /**
     * An exception of the same type as {@code shared}, with {@code message} and caused by it; a {@link RedisException}
     * so when none of that type can be made (the message must not be lost).
     */
    static Throwable of(Throwable shared, String message) {
        Throwable own = copy(shared, message);
        return own != null ? own : new RedisException(message, shared);
    }

    private static Throwable copy(Throwable shared, String message) {
        if (!(shared instanceof Exception)) {
            return null;
        }
        Throwable own;
        try {
            own = newInstance(shared.getClass(), message, shared);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
        own.setStackTrace(shared.getStackTrace());
        return own;
    }

    private static Throwable newInstance(Class<? extends Throwable> type, String message, Throwable shared)
            throws ReflectiveOperationException {
        try {
            return type.getConstructor(String.class, Throwable.class).newInstance(message, shared);
        } catch (NoSuchMethodException e) {
            return type.getConstructor(String.class).newInstance(message).initCause(shared);
        }
    }
}
