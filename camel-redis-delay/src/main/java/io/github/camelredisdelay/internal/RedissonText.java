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

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Redisson's text of a failure without what Redisson appends to its own words: the connection, and the command with its
 * arguments, which for a script is the start of its source. That tail spreads one log line over several and lists every
 * key of the call; the component's script the call ran is named instead.
 */
public final class RedissonText {

    /** Where Redisson's additions begin: ". channel: [...] data: CommandData [...]" or ", command: (...)". */
    private static final Pattern TAIL = Pattern.compile("[.,]? *(channel: \\[|command: \\(|data: CommandData).*",
            Pattern.DOTALL);
    /** The first line of each of the component's scripts, which Redisson quotes: "-- camel-redis-delay ack.lua". */
    private static final Pattern SCRIPT = Pattern.compile(Pattern.quote(LuaScript.Files.NAME_LINE) + "(\\S+)");

    private RedissonText() {
    }

    /** The message of {@code failure} ("null" when it has none) without Redisson's additions. */
    public static String words(Throwable failure) {
        return TAIL.matcher(String.valueOf(failure.getMessage())).replaceFirst("");
    }

    /**
     * The class and message of {@code failure} (the failure behind any {@code CompletionException}) without Redisson's
     * additions, naming the component's script the call ran, if any.
     */
    public static String of(Throwable failure) {
        Throwable cause = Futures.unwrap(failure);
        String message = cause.getMessage();
        Matcher tail = message == null ? null : TAIL.matcher(message);
        if (tail == null || !tail.find()) {
            return cause.toString();
        }
        Matcher script = SCRIPT.matcher(message).region(tail.start(), message.length());
        return cause.getClass().getName() + ": " + message.substring(0, tail.start()).strip()
               + (script.find() ? " (calling " + script.group(1) + ")" : "");
    }
}
