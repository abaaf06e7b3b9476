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

import java.util.Map;
import java.util.regex.Pattern;

import org.redisson.client.RedisConnectionException;
import org.redisson.client.RedisException;
import org.redisson.client.RedisNodeNotFoundException;
import org.redisson.client.RedisOutOfMemoryException;
import org.redisson.client.RedisTimeoutException;

/**
 * An error Redis replied (as opposed to a connection lost or a reply that did not come), said plainly: what it means,
 * then Redis' own words, without what Redisson appends to them (the connection, the command with its arguments and a
 * script's source). The one place that says it, for a producer's failure, a loop's log line and readiness.
 */
public final class ErrorReply {

    /** What Redis' error codes mean for the queue, by code. */
    private static final Map<String, String> MEANINGS = Map.of(
            "OOM", "Redis is out of memory (maxmemory reached, and its policy refuses writes rather than evict)",
            "READONLY", "Redis is a read-only replica, not the master (a failover demoted it, or the address names a "
                        + "replica)",
            "MISCONF", "Redis refuses writes since its last RDB snapshot failed (stop-writes-on-bgsave-error); see its log",
            "LOADING", "Redis is loading its dataset into memory (a restart) and answers nothing else until it is done",
            "BUSY", "Redis is busy running another client's script or function (SCRIPT KILL or FUNCTION KILL ends it)",
            "NOPERM", "the Redis user is not allowed a command or key the queue needs (ACL)",
            "WRONGTYPE", "a key of the queue holds a value of another type (written by something else under the "
                         + "queue's key prefix)",
            "NOSCRIPT", "Redis does not hold the component's script (SCRIPT FLUSH emptied its script cache, or a "
                        + "failover promoted a replica that never loaded it)");
    /** Where Redis 7 says which script replied: ". script: <sha>, on @user_script:345." */
    private static final Pattern SCRIPT_PLACE = Pattern.compile("\\.? *script: [0-9a-f]{40}, on @user_script:\\d+\\.*");
    /**
     * What Redis puts before an error a script raised: "ERR Error running script (call to f_...): @user_script:80: ".
     */
    private static final Pattern SCRIPT_PREFIX = Pattern.compile("^ERR Error running script [^:]*: @user_script:\\d+: ");
    /** How Redis 6.2 puts an error a script's command got: "@user_script: 345: -READONLY You can't write ...". */
    private static final Pattern SCRIPT_CALL_PREFIX = Pattern.compile("^@user_script: ?\\d+: -?");

    private ErrorReply() {
    }

    /**
     * The error Redis replied, {@code failure} or one of its causes; {@code null} when Redis replied none (out of
     * reach, no reply in time, the client's own failure). Redisson reports a reply as a {@link RedisException} without
     * a cause, and what it could not reach or hear back from as the subclasses for that, or with the cause attached.
     */
    public static RedisException in(Throwable failure) {
        return (RedisException) RootCause.first(Futures.unwrap(failure),
                cause -> cause instanceof RedisException && cause.getCause() == null
                        && !(cause instanceof RedisConnectionException || cause instanceof RedisTimeoutException
                                || cause instanceof RedisNodeNotFoundException));
    }

    /**
     * The error Redis replied when {@code failure} (unwrapped) is that reply itself, as Redisson reported it;
     * {@code null} when it is an explanation of the component's own around one, or no reply at all.
     */
    public static RedisException itself(Throwable failure) {
        RedisException reply = in(failure);
        return reply == Futures.unwrap(failure) ? reply : null;
    }

    /** Redis' own words, e.g. {@code OOM command not allowed when used memory > 'maxmemory'}. */
    public static String words(RedisException reply) {
        String text = RedissonText.words(reply);
        text = SCRIPT_PLACE.matcher(text).replaceAll("");
        text = SCRIPT_PREFIX.matcher(text).replaceFirst("");
        text = SCRIPT_CALL_PREFIX.matcher(text).replaceFirst("");
        // Redisson drops the code of the one kind it names by its type
        return reply instanceof RedisOutOfMemoryException && !text.startsWith("OOM") ? "OOM " + text : text;
    }

    /** What the reply means and Redis' own words: {@code Redis is out of memory (...); Redis replied: OOM ...}. */
    public static String plainly(RedisException reply) {
        String words = words(reply);
        int space = words.indexOf(' ');
        String meaning = MEANINGS.get(space > 0 ? words.substring(0, space) : words);
        return meaning == null ? "Redis replied: " + words : meaning + "; Redis replied: " + words;
    }
}
