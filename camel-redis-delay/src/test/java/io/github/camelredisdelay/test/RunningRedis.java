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
package io.github.camelredisdelay.test;

import java.util.Optional;

import io.github.camelredisdelay.embedded.RedisBinary;
import io.github.camelredisdelay.embedded.RedisServerOptions;
import io.github.camelredisdelay.embedded.RedisServerProcess;

/**
 * The Redis server the tests of this JVM use, however it was obtained; closing it stops what was started for the tests
 * and leaves an external server alone.
 *
 * @param url         where clients connect, e.g. {@code redis://127.0.0.1:41234}
 * @param version     the server's {@code redis_version}
 * @param process     the private process, when that is what runs, so fault tests can stop or kill it
 * @param description which server this is, for the log line
 * @param stopper     stops what the tests started
 */
record RunningRedis(String url, String version, Optional<RedisServerProcess> process, String description,
        Runnable stopper) implements AutoCloseable {

    /** A server someone else runs, such as a CI service container; it is never stopped here. */
    static RunningRedis external(String url, String source) {
        return new RunningRedis(
                url, RedisInfo.version(url), Optional.empty(), source + " " + withoutPassword(url),
                () -> {
                });
    }

    /** A private process with an append-only file, so fault tests can restart it without losing data. */
    static RunningRedis privateProcess(RedisBinary binary) {
        RedisServerOptions options = RedisServerOptions.defaults().withAppendOnly(true);
        RedisServerProcess process = RedisServerProcess.start(binary, options);
        try {
            return new RunningRedis(
                    process.uri(), process.version(), Optional.of(process),
                    "private process " + binary + ", port " + process.port(), process::close);
        } catch (RuntimeException e) {
            process.close();
            throw e;
        }
    }

    @Override
    public void close() {
        stopper.run();
    }

    /** The URL with its user info masked, fit for messages and logs. */
    static String withoutPassword(String url) {
        return url.replaceFirst("//[^/@]*@", "//***@");
    }
}
