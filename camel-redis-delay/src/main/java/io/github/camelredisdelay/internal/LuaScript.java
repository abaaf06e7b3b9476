package io.github.camelredisdelay.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The Lua scripts of the component, one per atomic operation on a queue. Each file documents its KEYS, ARGV and
 * return values at the top; {@code prelude.lua} holds the helpers they share. Redisson sends them by SHA and loads them on a NOSCRIPT reply.
 */
public enum LuaScript {
    SCHEDULE("schedule.lua"),
    TRANSFER("transfer.lua"),
    ACK("ack.lua"),
    CANCEL("cancel.lua"),
    RESCHEDULE("reschedule.lua"),
    RETRY("retry.lua"),
    RECLAIM("reclaim.lua"),
    RETIRE("retire.lua"),
    STATS("stats.lua"),
    TIME("time.lua");

    /** Helpers every script may use; prepended to each. */
    private static final String PRELUDE_FILE = "prelude.lua";

    private final String text;

    LuaScript(String file) {
        this.text = load(PRELUDE_FILE) + "\n" + load(file);
    }

    public String text() {
        return text;
    }

    private static String load(String file) {
        String resource = "/io/github/camelredisdelay/lua/" + file;
        try (InputStream in = LuaScript.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("Lua script " + resource + " is missing from the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read Lua script " + resource, e);
        }
    }
}
