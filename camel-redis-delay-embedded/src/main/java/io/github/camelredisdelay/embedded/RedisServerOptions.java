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
package io.github.camelredisdelay.embedded;

import java.util.Arrays;
import java.util.List;

/**
 * How to start a {@link RedisServerProcess}. Immutable; start from {@link #defaults()} and derive with the
 * {@code with...} methods.
 *
 * @param port       the port to listen on, or 0 to pick a free one
 * @param appendOnly whether to keep an append-only file ({@code appendfsync everysec}), so data survives
 *                   {@link RedisServerProcess#restart()}
 * @param extraArgs  further {@code redis-server} arguments, appended as given (e.g. {@code "--maxmemory",
 *                   "10mb"})
 */
public record RedisServerOptions(int port, boolean appendOnly, List<String> extraArgs) {

    /** Validates the values and freezes {@code extraArgs}. */
    public RedisServerOptions {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("Port must be 0 (free) or 1-65535, not " + port);
        }
        extraArgs = List.copyOf(extraArgs);
    }

    /** A free port, no append-only file, no extra arguments. */
    public static RedisServerOptions defaults() {
        return new RedisServerOptions(0, false, List.of());
    }

    /** These options with another port; 0 picks a free one. */
    public RedisServerOptions withPort(int newPort) {
        return new RedisServerOptions(newPort, appendOnly, extraArgs);
    }

    /** These options with the append-only file switched on or off. */
    public RedisServerOptions withAppendOnly(boolean newAppendOnly) {
        return new RedisServerOptions(port, newAppendOnly, extraArgs);
    }

    /** These options with the given extra arguments instead of the current ones. */
    public RedisServerOptions withExtraArgs(String... newExtraArgs) {
        return new RedisServerOptions(port, appendOnly, Arrays.asList(newExtraArgs));
    }
}
