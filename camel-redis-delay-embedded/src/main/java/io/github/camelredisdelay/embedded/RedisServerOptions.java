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
