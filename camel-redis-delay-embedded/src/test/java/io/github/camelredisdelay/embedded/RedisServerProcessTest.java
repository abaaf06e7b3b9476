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

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class RedisServerProcessTest {

    private static final Pattern VERSION_FLAG_OUTPUT = Pattern.compile("\\bv=(\\S+)");

    @Test
    void pathBinaryServesTheVersionItReports() throws Exception {
        Optional<RedisBinary> onPath = RedisBinary.onPath();
        assumeTrue(onPath.isPresent(), "no redis-server on PATH");

        try (RedisServerProcess server = RedisServerProcess.start(onPath.get(), RedisServerOptions.defaults())) {
            assertThat(server.version()).isEqualTo(reportedVersion(onPath.get()));
        }
    }

    @Test
    void embeddedBinaryIsRedis62() {
        RedisBinary embedded = RedisBinary.embedded();

        try (RedisServerProcess server = RedisServerProcess.start(embedded, RedisServerOptions.defaults())) {
            assertThat(server.version()).startsWith("6.2.");
        }
    }

    @Test
    @Tag("clock-skew")
    void embeddedServerStartedWithAClockOffsetReadsItsTimeThatFarFromThisMachinesClock() {
        for (Duration offset : List.of(Duration.ofHours(1), Duration.ofHours(-1))) {
            RedisServerOptions options = RedisServerOptions.defaults().withClockOffset(offset);
            try (RedisServerProcess server = RedisServerProcess.start(RedisBinary.embedded(), options)) {
                long redisSeconds = server.timeMillis() / 1000;
                long jvmSeconds = System.currentTimeMillis() / 1000;

                assertThat(redisSeconds - jvmSeconds).as("Redis' TIME minus this JVM's clock, s, for offset %s", offset)
                        .isBetween(offset.getSeconds() - 2, offset.getSeconds() + 2);
            }
        }
    }

    @Test
    void timeMillisIsTheServersClockInMilliseconds() {
        try (RedisServerProcess server = start(RedisServerOptions.defaults())) {
            long before = System.currentTimeMillis();
            long redis = server.timeMillis();
            long after = System.currentTimeMillis();

            // one machine, one clock: TIME lies between the two readings, give or take a millisecond of rounding
            assertThat(redis).isBetween(before - 1, after + 1);
        }
    }

    @Test
    void serverAnswersPingOnLoopbackAtItsUri() {
        try (RedisServerProcess server = start(RedisServerOptions.defaults())) {
            assertThat(server.host()).isEqualTo("127.0.0.1");
            assertThat(server.uri()).isEqualTo("redis://127.0.0.1:" + server.port());
            assertThat(server.isRunning()).isTrue();
            assertThat(server.command("PING")).isEqualTo("PONG");
        }
    }

    @Test
    void givenPortIsUsed() throws IOException {
        int port = freePort();

        try (RedisServerProcess server = start(RedisServerOptions.defaults().withPort(port))) {
            assertThat(server.port()).isEqualTo(port);
        }
    }

    @Test
    void commandReturnsIntegerBulkAndNilRepliesAsText() {
        try (RedisServerProcess server = start(RedisServerOptions.defaults())) {
            assertThat(server.command("INCR", "counter")).isEqualTo("1");
            assertThat(server.command("GET", "counter")).isEqualTo("1");
            assertThat(server.command("GET", "missing")).isNull();
        }
    }

    @Test
    void commandReturnsArrayElementsOnSeparateLines() {
        try (RedisServerProcess server = start(RedisServerOptions.defaults())) {
            assertThat(server.command("CONFIG", "GET", "appendonly")).isEqualTo("appendonly\nno");
        }
    }

    @Test
    void errorReplyBecomesIllegalStateExceptionWithRedisText() {
        try (RedisServerProcess server = start(RedisServerOptions.defaults())) {
            assertThatThrownBy(() -> server.command("NOSUCHCOMMAND"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("unknown command");
        }
    }

    @Test
    void appendOnlyDataSurvivesGracefulStopAndRestart() {
        try (RedisServerProcess server = start(RedisServerOptions.defaults().withAppendOnly(true))) {
            int port = server.port();
            server.command("SET", "order:1", "due");

            server.stop();
            assertThat(server.isRunning()).isFalse();
            server.restart();

            assertThat(server.port()).isEqualTo(port);
            assertThat(server.command("GET", "order:1")).isEqualTo("due");
        }
    }

    @Test
    void killEndsTheProcessAndRestartBringsItBackOnTheSamePort() {
        try (RedisServerProcess server = start(RedisServerOptions.defaults().withAppendOnly(true))) {
            long killedPid = server.pid();
            int port = server.port();

            server.kill();
            assertThat(isAlive(killedPid)).isFalse();
            assertThat(server.isRunning()).isFalse();

            server.restart();
            assertThat(server.pid()).isNotEqualTo(killedPid);
            assertThat(server.port()).isEqualTo(port);
            assertThat(server.command("PING")).isEqualTo("PONG");
        }
    }

    @Test
    void stopWithoutAppendOnlyEndsTheProcess() {
        try (RedisServerProcess server = start(RedisServerOptions.defaults())) {
            long pid = server.pid();

            server.stop();

            assertThat(isAlive(pid)).isFalse();
        }
    }

    @Test
    void closeStopsTheServerAndDeletesItsDirectory() {
        RedisServerProcess server = start(RedisServerOptions.defaults().withAppendOnly(true));
        long pid = server.pid();
        Path dir = server.directory();

        server.close();

        assertThat(isAlive(pid)).isFalse();
        assertThat(dir).doesNotExist();
    }

    @Test
    void restartAfterCloseIsRejected() {
        RedisServerProcess server = start(RedisServerOptions.defaults());
        server.close();

        assertThatThrownBy(server::restart).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    @Test
    void configFileLinesApplyAndArgumentsWinOverThem() {
        RedisServerOptions options = RedisServerOptions.defaults().withExtraArgs("--maxmemory", "20mb");

        try (RedisServerProcess server = RedisServerProcess.start(RedisBinary.select("path"), options,
                List.of("maxmemory 10mb", "maxmemory-policy noeviction"))) {
            assertThat(server.command("CONFIG", "GET", "maxmemory")).isEqualTo("maxmemory\n20971520");
            assertThat(server.command("CONFIG", "GET", "maxmemory-policy")).isEqualTo("maxmemory-policy\nnoeviction");
        }
    }

    @Test
    void configFileIsReadAgainOnRestartWithWhatTheServerRewroteIntoIt() {
        try (RedisServerProcess server = RedisServerProcess.start(RedisBinary.select("path"),
                RedisServerOptions.defaults(), List.of("maxmemory-policy noeviction"))) {
            server.command("CONFIG", "SET", "maxmemory-policy", "allkeys-lru");
            server.command("CONFIG", "REWRITE");

            server.restart();

            assertThat(server.command("CONFIG", "GET", "maxmemory-policy")).isEqualTo("maxmemory-policy\nallkeys-lru");
        }
    }

    @Test
    void startFailureShowsTheServerOutput() {
        RedisServerOptions badOptions = RedisServerOptions.defaults().withExtraArgs("--maxmemory-policy", "nonsense");

        assertThatThrownBy(() -> start(badOptions))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("exited with code")
                .hasMessageContaining("nonsense");
    }

    @Test
    void startFailsWhenTheGivenPortStaysTaken() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            RedisServerOptions options = RedisServerOptions.defaults().withPort(taken.getLocalPort());

            assertThatThrownBy(() -> start(options))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("port in use");
        }
    }

    private static RedisServerProcess start(RedisServerOptions options) {
        return RedisServerProcess.start(RedisBinary.select("path"), options);
    }

    private static boolean isAlive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }

    /** The version {@code redis-server --version} prints, e.g. {@code v=7.0.15}. */
    private static String reportedVersion(RedisBinary binary) throws Exception {
        Process process = new ProcessBuilder(binary.path().toString(), "--version").redirectErrorStream(true).start();
        String output;
        try {
            assertThat(process.waitFor(10, TimeUnit.SECONDS)).as("redis-server --version exits").isTrue();
            output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } finally {
            process.destroyForcibly();
        }
        Matcher matcher = VERSION_FLAG_OUTPUT.matcher(output);
        assertThat(matcher.find()).as("version in: %s", output).isTrue();
        return matcher.group(1);
    }
}
