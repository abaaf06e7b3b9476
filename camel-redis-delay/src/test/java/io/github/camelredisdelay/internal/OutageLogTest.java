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

import org.junit.jupiter.api.Test;
import org.redisson.client.RedisException;
import org.redisson.client.RedisOutOfMemoryException;
import org.slf4j.Logger;

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
