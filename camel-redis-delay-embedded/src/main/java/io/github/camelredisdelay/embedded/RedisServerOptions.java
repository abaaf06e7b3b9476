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

import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How to start a {@link RedisServerProcess}. Immutable; start from {@link #defaults()} and derive with the
 * {@code with...} methods.
 *
 * @param port        the port to listen on, or 0 to pick a free one
 * @param appendOnly  whether to keep an append-only file ({@code appendfsync everysec}), so data survives
 *                    {@link RedisServerProcess#restart()}
 * @param extraArgs   further {@code redis-server} arguments, appended as given (e.g. {@code "--maxmemory",
 *                    "10mb"})
 * @param environment variables added to the environment the server inherits from this JVM (e.g. those of
 *                    {@link #withClockOffset(Duration)})
 */
public record RedisServerOptions(int port, boolean appendOnly, List<String> extraArgs, Map<String, String> environment) {

    /** Validates the values and freezes {@code extraArgs} and {@code environment}. */
    public RedisServerOptions {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("Port must be 0 (free) or 1-65535, not " + port);
        }
        extraArgs = List.copyOf(extraArgs);
        environment = Map.copyOf(environment);
    }

    /** Options that add nothing to the server's environment. */
    public RedisServerOptions(int port, boolean appendOnly, List<String> extraArgs) {
        this(port, appendOnly, extraArgs, Map.of());
    }

    /** A free port, no append-only file, no extra arguments, the JVM's environment. */
    public static RedisServerOptions defaults() {
        return new RedisServerOptions(0, false, List.of());
    }

    /** These options with another port; 0 picks a free one. */
    public RedisServerOptions withPort(int newPort) {
        return new RedisServerOptions(newPort, appendOnly, extraArgs, environment);
    }

    /** These options with the append-only file switched on or off. */
    public RedisServerOptions withAppendOnly(boolean newAppendOnly) {
        return new RedisServerOptions(port, newAppendOnly, extraArgs, environment);
    }

    /** These options with the given extra arguments instead of the current ones. */
    public RedisServerOptions withExtraArgs(String... newExtraArgs) {
        return new RedisServerOptions(port, appendOnly, Arrays.asList(newExtraArgs), environment);
    }

    /** These options with the given variables added to the server's environment, replacing any of the same name. */
    public RedisServerOptions withEnvironment(Map<String, String> variables) {
        Map<String, String> merged = new LinkedHashMap<>(environment);
        merged.putAll(variables);
        return new RedisServerOptions(port, appendOnly, extraArgs, merged);
    }

    /**
     * These options with the server's wall clock (the one {@code TIME} reads) {@code offset} ahead of this machine's,
     * behind it when negative: the server runs under libfaketime ({@link FakeTime}), the only way to give a real
     * {@code redis-server} a skewed clock on one machine. Its monotonic clock is left alone, as a host whose clock is
     * off has it.
     *
     * @throws IllegalArgumentException when the offset is not a whole number of seconds
     * @throws IllegalStateException    when libfaketime is not installed, saying to install Debian's {@code faketime}
     *                                  package
     */
    public RedisServerOptions withClockOffset(Duration offset) {
        return withEnvironment(FakeTime.environment(offset));
    }
}
