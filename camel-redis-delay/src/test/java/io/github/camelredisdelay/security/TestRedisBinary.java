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
package io.github.camelredisdelay.security;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.camelredisdelay.embedded.RedisBinary;
import io.github.camelredisdelay.test.RedisServerExtension;

/**
 * The redis-server binary the security tests start their own servers with: the one the rest of the suite uses, as the
 * system property {@code redis.test.binary} chooses ({@code path} or {@code embedded}).
 */
final class TestRedisBinary {

    private static final Pattern VERSION = Pattern.compile("v=(\\d+\\.\\d+\\.\\d+)");
    private static final long VERSION_TIMEOUT_SECONDS = 10;

    private TestRedisBinary() {
    }

    static RedisBinary selected() {
        return RedisBinary.select(System.getProperty(RedisServerExtension.BINARY_PROPERTY, RedisBinary.PATH_CHOICE));
    }

    /**
     * The version {@code redis-server --version} prints, such as {@code 7.0.15}, for settings that must be right before
     * the server starts.
     */
    static String version(RedisBinary binary) {
        try {
            Process process = new ProcessBuilder(binary.path().toString(), "--version").redirectErrorStream(true)
                    .start();
            if (!process.waitFor(VERSION_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(
                        binary + " --version did not answer within " + VERSION_TIMEOUT_SECONDS
                                                + " s");
            }
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            Matcher version = VERSION.matcher(output);
            if (!version.find()) {
                throw new IllegalStateException(binary + " --version printed no version: " + output);
            }
            return version.group(1);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot run " + binary + " --version", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while asking " + binary + " for its version", e);
        }
    }
}
