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
import java.lang.reflect.Proxy;
import java.net.ConnectException;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.test.LogLines;
import org.junit.jupiter.api.Test;
import org.redisson.client.RedisException;
import org.redisson.client.RedisOutOfMemoryException;
import org.redisson.client.RedisResponseTimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;

class OutageLogTest {

    /** Collects WARN and INFO lines: a logger whose every other call does nothing. */
    static final class Lines {
        final List<String> lines = new CopyOnWriteArrayList<>();
        final Logger logger = (Logger) Proxy.newProxyInstance(Logger.class.getClassLoader(), new Class<?>[] { Logger.class },
                (proxy, method, args) -> {
                    String level = method.getName();
                    if ((level.equals("warn") || level.equals("info")) && args != null && args[0] instanceof String pattern) {
                        lines.add(level.toUpperCase(Locale.ROOT) + " " + pattern);
                    }
                    return method.getReturnType() == boolean.class ? Boolean.TRUE : null;
                });
    }

    @Test
    void anOutageIsLoggedOnceWhenItStartsAndOnceWhenItEnds() {
        Lines lines = new Lines();
        OutageLog outage = new OutageLog(lines.logger, "Consumer of queue q");

        for (int i = 0; i < 100; i++) {
            outage.failed(new IOException("refused"));
        }
        outage.succeeded();
        outage.succeeded();

        assertThat(lines.lines).hasSize(2);
        assertThat(lines.lines.get(0)).startsWith("WARN");
        assertThat(lines.lines.get(1)).startsWith("INFO");
    }

    /**
     * Redisson's text of a timeout goes on with the command: the start of the script's source, over several lines, and
     * every key and argument of the call. The WARN an operator reads keeps Redisson's own words and names the script.
     */
    @Test
    void aTimeoutIsLoggedOnOneLineNamingTheScriptWithoutItsSourceOrKeys() {
        String timeout = "Redis server response timeout (3000 ms) occurred after 1 of 1 retry attempts, is "
                         + "non-idempotent command: false Check connection with Redis node: 127.0.0.1/127.0.0.1:40333 "
                         + "for TCP packet drops or bandwidth limits.  Try to increase nettyThreads and/or timeout "
                         + "settings. Netty pending tasks: 0, command: (EVALSHA, cached script: -- camel-redis-delay "
                         + "transfer.lua\n--[[\n  Prepended to every script of this folder, followed by wire.lua ...), "
                         + "params: [eb45a201c4127ab0d8917e086a69486e6cd26bf5, 6, test:{q}:due, test:{q}:msg], channel: "
                         + "[id: 0xc7913e7f, L:/127.0.0.1:41598 - R:127.0.0.1/127.0.0.1:40333]";
        try (LogLines log = LogLines.of(OutageLogTest.class)) {
            new OutageLog(LoggerFactory.getLogger(OutageLogTest.class), "Transfer task of queue q")
                    .failed(new CompletionException(new RedisResponseTimeoutException(timeout)));

            assertThat(log.lines()).singleElement().asString().startsWith("WARN")
                    .contains("Transfer task of queue q cannot reach Redis")
                    .contains("RedisResponseTimeoutException: Redis server response timeout (3000 ms)")
                    .contains("Netty pending tasks: 0").contains("transfer.lua").doesNotContain("\n")
                    .doesNotContain("Prepended").doesNotContain("{q}:due").doesNotContain("CompletionException");
        }
    }

    @Test
    void anErrorRedisRepliedIsReportedAsSuchNotAsRedisOutOfReach() {
        Lines lines = new Lines();
        OutageLog outage = new OutageLog(lines.logger, "Migration from RDelayedQueue d to queue q");

        outage.failed(new CompletionException(
                new RedisException("ERR user_script:107: bad argument #2 to 'unpack' (data string too short)")));
        outage.succeeded();

        assertThat(lines.lines).containsExactly("WARN {} failed on an error Redis replied; retrying with back-off: {}",
                "INFO {} succeeds again");
    }

    @Test
    void aRefusalRedissonReportsAsASubclassIsAnErrorRedisReplied() {
        Lines lines = new Lines();
        OutageLog outage = new OutageLog(lines.logger, "Transfer task of queue q");

        outage.failed(new CompletionException(
                new RedisOutOfMemoryException(
                        "command not allowed when used memory > 'maxmemory'. channel: [id: 0x1] command: (EVALSHA)")));

        assertThat(lines.lines).containsExactly("WARN {} failed on an error Redis replied; retrying with back-off: {}");
    }

    @Test
    void anErrorRedisRepliedThatTheComponentExplainsIsStillAnErrorRedisReplied() {
        Lines lines = new Lines();
        OutageLog outage = new OutageLog(lines.logger, "Consumer of queue q");
        RedisException reply = new RedisException("ERR unknown command 'WAITAOF', with args beginning with: '1' '1' '1000'");

        outage.failed(new CompletionException(
                new IllegalStateException(
                        "syncAof=true on queue q needs Redis 7.2 or later (WAITAOF); the server replied: " + reply.getMessage(),
                        reply)));

        assertThat(lines.lines).containsExactly("WARN {} failed on an error Redis replied; retrying with back-off: {}");
    }

    @Test
    void aConnectionLostWhileACommandRanIsRedisOutOfReach() {
        Lines lines = new Lines();
        OutageLog outage = new OutageLog(lines.logger, "Consumer of queue q");

        outage.failed(new RedisException(
                "Unexpected exception while processing command",
                new ConnectException("Connection refused")));

        assertThat(lines.lines).containsExactly("WARN {} cannot reach Redis, retrying with back-off: {}");
    }

    @Test
    void aFlappingConnectionIsReportedOnceAMinute() {
        Lines lines = new Lines();
        OutageLog outage = new OutageLog(lines.logger, "Consumer of queue q");

        for (int i = 0; i < 50; i++) {
            outage.failed(new IOException("closed"));
            outage.succeeded();
        }

        assertThat(lines.lines).hasSize(2);
        assertThat(outage.isDown()).isFalse();
    }
}
