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

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.redisson.api.RScript;

/**
 * The Lua scripts of the component, one per atomic operation on a queue. Each file documents its ARGV and return values
 * at the top and names the helper files it uses in an {@code Includes:} line; {@code prelude.lua} (the keys and common
 * arguments every script gets, and shared helpers) and {@code wire.lua} (values shared with {@link Wire}) are prepended
 * to every script, followed by its includes in the order named. Every helper a script carries costs a closure on each
 * call, so a script includes only those it uses. The text sent starts with a line naming the script, which Redisson's
 * errors quote, and leaves out the files' licence headers. Redisson sends them by SHA and loads them on a NOSCRIPT
 * reply.
 */
public enum LuaScript {
    SCHEDULE("schedule.lua", RScript.Mode.READ_WRITE),
    TRANSFER("transfer.lua", RScript.Mode.READ_WRITE),
    ACK("ack.lua", RScript.Mode.READ_WRITE),
    CANCEL("cancel.lua", RScript.Mode.READ_WRITE),
    RESCHEDULE("reschedule.lua", RScript.Mode.READ_WRITE),
    RETRY("retry.lua", RScript.Mode.READ_WRITE),
    RECLAIM("reclaim.lua", RScript.Mode.READ_WRITE),
    OWN_TAKE_OVER("own-take-over.lua", RScript.Mode.READ_WRITE),
    EXTEND("extend.lua", RScript.Mode.READ_WRITE),
    /** Only reads, but must see the master's state: READ_WRITE sends it there. */
    LEASE_CHECK("lease-check.lua", RScript.Mode.READ_WRITE),
    RETIRE("retire.lua", RScript.Mode.READ_WRITE),
    HAND_BACK("hand-back.lua", RScript.Mode.READ_WRITE),
    /**
     * Only reads, but its oldest overdue age and the clock offset taken from it are on Redis' clock, which must be the
     * master's (due times are set on it; a replica's may differ): READ_WRITE sends it to the master.
     */
    STATS("stats.lua", RScript.Mode.READ_WRITE),
    PEEK("peek.lua", RScript.Mode.READ_ONLY),
    /**
     * {@code peek.lua} on the master: a dead-lettering looking for its own earlier copy must not miss it on a replica.
     */
    PEEK_ON_MASTER("peek.lua", RScript.Mode.READ_WRITE),
    PURGE("purge.lua", RScript.Mode.READ_WRITE),
    PURGE_END("purge-end.lua", RScript.Mode.READ_WRITE),
    BROWSE("browse.lua", RScript.Mode.READ_ONLY),
    DEAD_LETTERS("dead-letters.lua", RScript.Mode.READ_ONLY),
    /**
     * Only reads, but pages with an {@code HSCAN} cursor, which holds only on the server that gave it (replicas' hash
     * tables may differ in size): READ_WRITE sends every page to the master.
     */
    DEAD_LETTER_IDS("dead-letter-ids.lua", RScript.Mode.READ_WRITE),
    DISCARD("discard.lua", RScript.Mode.READ_WRITE),
    REDRIVE_CLAIM("redrive-claim.lua", RScript.Mode.READ_WRITE),
    REDRIVE_RETURN("redrive-return.lua", RScript.Mode.READ_WRITE),
    REDRIVE_TURN("redrive-turn.lua", RScript.Mode.READ_WRITE),
    /**
     * Only reads, but pages with an {@code HSCAN} cursor, which holds only on the server that gave it: READ_WRITE sends
     * every page to the master.
     */
    SCHEDULED_PAGE("scheduled-page.lua", RScript.Mode.READ_WRITE),
    REDRIVE_READY("redrive-ready.lua", RScript.Mode.READ_WRITE),
    /**
     * Only reads, but due times are set on the master's clock, and a replica's may differ (another host): READ_WRITE
     * sends it to the master whatever Redisson's {@code readMode}.
     */
    TIME("time.lua", RScript.Mode.READ_WRITE),
    PROBE("probe.lua", RScript.Mode.READ_WRITE),
    /**
     * Only reads, but the policy that matters is the master's (a replica does not evict, and may have another):
     * READ_WRITE sends it there.
     */
    MEMORY_POLICY("memory-policy.lua", RScript.Mode.READ_WRITE),
    SHARD_COUNT("shard-count.lua", RScript.Mode.READ_WRITE),
    MIGRATE("migrate.lua", RScript.Mode.READ_WRITE),
    MIGRATED_FORGET("migrated-forget.lua", RScript.Mode.READ_WRITE),
    /** Not a queue script: runs on a legacy RDelayedQueue's slot, without prelude.lua. */
    LEGACY_CLAIM("legacy-claim.lua", RScript.Mode.READ_WRITE, false),
    /** Not a queue script: runs on a legacy RDelayedQueue's slot, without prelude.lua. */
    LEGACY_REMOVE("legacy-remove.lua", RScript.Mode.READ_WRITE, false);

    private final String text;
    private final RScript.Mode mode;
    private final boolean queueScript;

    LuaScript(String file, RScript.Mode mode) {
        this(file, mode, true);
    }

    /** @param queueScript whether the script gets the queue keys and common arguments: prelude.lua and wire.lua */
    LuaScript(String file, RScript.Mode mode, boolean queueScript) {
        this.mode = mode;
        this.queueScript = queueScript;
        this.text = Files.NAME_LINE + file + '\n' + (queueScript ? Files.compose(file) : Files.body(file));
    }

    public String text() {
        return text;
    }

    /** The script's name line without the comment's dashes, {@code camel-redis-delay cancel.lua}, for errors. */
    public String title() {
        return text.substring(3, text.indexOf('\n'));
    }

    /** Whether the script gets a queue's keys and common arguments (prelude.lua); false for the legacy ones. */
    public boolean queueScript() {
        return queueScript;
    }

    /**
     * The mode the script is sent in: {@code READ_ONLY} only for scripts that read and may run on a replica (per
     * Redisson's {@code readMode}); {@code READ_WRITE} sends it to the master, also for some that only read.
     */
    public RScript.Mode mode() {
        return mode;
    }

    /**
     * Reads the files of this folder and puts a script together; apart because an enum's constructor sees no statics.
     */
    static final class Files {

        /** Starts every script's text, followed by its file name. */
        static final String NAME_LINE = "-- camel-redis-delay ";
        /** The licence header every file starts with: comment lines, then a blank one. */
        private static final Pattern LICENCE = Pattern.compile("\\A(--[^\\[\\n][^\\n]*\\n|--\\n)+\\n*");
        /** Prepended to every script, in this order. */
        private static final String[] ALWAYS = { "prelude.lua", "wire.lua" };
        private static final Pattern INCLUDES = Pattern.compile("^\\s*Includes:\\s*(.+)$", Pattern.MULTILINE);

        private Files() {
        }

        static String compose(String file) {
            String script = body(file);
            StringBuilder text = new StringBuilder();
            for (String always : ALWAYS) {
                text.append(body(always)).append('\n');
            }
            for (String include : includes(script)) {
                text.append(body(include)).append('\n');
            }
            return text.append(script).toString();
        }

        /** A file without its licence header. */
        static String body(String file) {
            return LICENCE.matcher(load(file)).replaceFirst("");
        }

        /** The helper files a script names in its header's {@code Includes:} line. */
        static String[] includes(String script) {
            Matcher includes = INCLUDES.matcher(script);
            return includes.find() ? includes.group(1).trim().split("\\s*,\\s*") : new String[0];
        }

        static String load(String file) {
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
}
