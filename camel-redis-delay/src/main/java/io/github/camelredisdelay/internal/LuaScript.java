package io.github.camelredisdelay.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The Lua scripts of the component, one per atomic operation on a queue. Each file documents its KEYS, ARGV and
 * return values at the top; {@code prelude.lua} holds the helpers all share and is prepended to each, followed by the
 * helper files a script names ({@code record.lua}, {@code due-set.lua}, {@code batches.lua}). Every helper a script carries costs a
 * closure on each call, so a script carries only those it uses. Redisson sends them by SHA and loads them on a
 * NOSCRIPT reply.
 */
public enum LuaScript {
    SCHEDULE("schedule.lua", "record.lua", "due-set.lua"),
    TRANSFER("transfer.lua", "due-set.lua", "batches.lua"),
    ACK("ack.lua", "record.lua", "batches.lua"),
    CANCEL("cancel.lua", "record.lua", "due-set.lua"),
    RESCHEDULE("reschedule.lua", "record.lua", "due-set.lua"),
    RETRY("retry.lua", "record.lua", "due-set.lua"),
    RECLAIM("reclaim.lua", "record.lua"),
    RETIRE("retire.lua"),
    STATS("stats.lua", "record.lua", "due-set.lua"),
    TIME("time.lua"),
    MEMORY_POLICY("memory-policy.lua");

    /** Helpers every script may use; prepended to each. */
    private static final String PRELUDE_FILE = "prelude.lua";

    private final String text;

    LuaScript(String file, String... helperFiles) {
        StringBuilder text = new StringBuilder(load(PRELUDE_FILE)).append('\n');
        for (String helperFile : helperFiles) {
            text.append(load(helperFile)).append('\n');
        }
        this.text = text.append(load(file)).toString();
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
