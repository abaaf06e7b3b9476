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
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code redis-server} executable: the one on {@code PATH} (6.2 or later, the oldest Redis the component runs on),
 * the Redis 6.2 build for this platform (Linux or macOS, x86-64 or ARM) that the
 * {@code com.github.codemonstur:embedded-redis} jar ships as a classpath resource, or Valkey's {@code valkey-server} on
 * {@code PATH}, which takes the same arguments and speaks the same protocol.
 */
public final class RedisBinary {

    /** {@link #select(String)} choice: the {@code PATH} binary when there is one, else the embedded one. */
    public static final String PATH_CHOICE = "path";
    /** {@link #select(String)} choice: always the binary shipped in the embedded-redis jar. */
    public static final String EMBEDDED_CHOICE = "embedded";
    /** {@link #select(String)} choice: the {@code valkey-server} on {@code PATH}, with no fallback. */
    public static final String VALKEY_CHOICE = "valkey";

    private static final String EXECUTABLE_NAME = "redis-server";
    private static final String VALKEY_EXECUTABLE_NAME = "valkey-server";
    /** {@code redis-server --version} prints {@code Redis server v=7.0.15 sha=...}. */
    private static final Pattern VERSION = Pattern.compile("\\bv=(\\d+)\\.(\\d+)");

    /** Extracted at most once per JVM; every embedded instance shares the file. */
    private static Path extracted;

    private final Path path;

    private RedisBinary(Path path) {
        this.path = path;
    }

    /**
     * The first executable {@code redis-server} in the directories of the {@code PATH} environment variable, if any and
     * if it is Redis 6.2 or later (an older one is passed over with a line on standard output saying so).
     */
    public static Optional<RedisBinary> onPath() {
        return SearchPath.find(EXECUTABLE_NAME).map(RedisBinary::new).filter(RedisBinary::isSupported);
    }

    private boolean isSupported() {
        String version = versionLine();
        if (isSupportedVersion(version)) {
            return true;
        }
        System.out.println("[redis] " + path + " is passed over: it is not Redis 6.2 or later (" + version.strip() + ")");
        return false;
    }

    /** Whether a {@code redis-server --version} line is of Redis 6.2 or later. */
    static boolean isSupportedVersion(String versionLine) {
        Matcher matcher = VERSION.matcher(versionLine);
        if (!matcher.find()) {
            return false;
        }
        int major = Integer.parseInt(matcher.group(1));
        int minor = Integer.parseInt(matcher.group(2));
        return major > 6 || major == 6 && minor >= 2;
    }

    private String versionLine() {
        try {
            Process process = new ProcessBuilder(path.toString(), "--version").redirectErrorStream(true).start();
            // one line, which the pipe holds: wait first, so that a binary that hangs cannot hang the read
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return "no answer to --version within 10 s";
            }
            try (InputStream out = process.getInputStream()) {
                return new String(out.readAllBytes(), StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            return "cannot run it: " + e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    /**
     * The first executable {@code valkey-server} in the directories of the {@code PATH} environment variable.
     *
     * @throws IllegalStateException when there is none; a Valkey run never falls back to Redis
     */
    public static RedisBinary valkey() {
        return SearchPath.find(VALKEY_EXECUTABLE_NAME).map(RedisBinary::new)
                .orElseThrow(() -> new IllegalStateException(
                        "No " + VALKEY_EXECUTABLE_NAME + " on PATH; install it "
                                                             + "(Debian: apt-get install -t bookworm-backports valkey-server)"));
    }

    /**
     * The binary shipped in the embedded-redis jar, copied to a temporary executable file on first use and deleted when
     * the JVM exits.
     *
     * @throws IllegalStateException on a platform the jar has no Redis 6.2 build for
     */
    public static RedisBinary embedded() {
        return new RedisBinary(extractEmbedded());
    }

    /**
     * The binary for a configuration value: {@value #PATH_CHOICE}, {@value #EMBEDDED_CHOICE} or
     * {@value #VALKEY_CHOICE}.
     *
     * @throws IllegalArgumentException for any other value
     */
    public static RedisBinary select(String choice) {
        if (PATH_CHOICE.equals(choice)) {
            return onPath().orElseGet(RedisBinary::embedded);
        }
        if (EMBEDDED_CHOICE.equals(choice)) {
            return embedded();
        }
        if (VALKEY_CHOICE.equals(choice)) {
            return valkey();
        }
        throw new IllegalArgumentException(
                "Unknown redis-server binary choice '" + choice + "'; allowed: '"
                                           + PATH_CHOICE + "', '" + EMBEDDED_CHOICE + "', '" + VALKEY_CHOICE + "'");
    }

    /** The executable file. */
    public Path path() {
        return path;
    }

    @Override
    public String toString() {
        return path.toString();
    }

    private static synchronized Path extractEmbedded() {
        if (extracted == null) {
            extracted = copyResourceToExecutable(
                    embeddedResource(System.getProperty("os.name", ""), System.getProperty("os.arch", "")));
        }
        return extracted;
    }

    /**
     * The jar's Redis 6.2 build for a platform ({@code os.name}, {@code os.arch}).
     *
     * @throws IllegalStateException for a platform it has none for (its Windows build is Redis 5.0)
     */
    static String embeddedResource(String osName, String osArch) {
        String os = osName.toLowerCase(Locale.ROOT);
        String arch = osArch.toLowerCase(Locale.ROOT);
        boolean x64 = arch.equals("amd64") || arch.equals("x86_64");
        boolean arm64 = arch.equals("aarch64") || arch.equals("arm64");
        if (os.contains("linux") && x64) {
            return "/redis-server-6.2.6-v5-linux-amd64";
        }
        if (os.contains("linux") && arm64) {
            return "/redis-server-6.2.7-linux-arm64";
        }
        boolean mac = os.contains("mac") || os.contains("darwin");
        if (mac && x64) {
            return "/redis-server-6.2.6-v5-darwin-amd64";
        }
        if (mac && arm64) {
            return "/redis-server-6.2.6-v5-darwin-arm64";
        }
        throw new IllegalStateException(
                "The embedded-redis jar has no Redis 6.2 build for " + os + "/" + arch
                                        + " (Linux and macOS on x86-64 or ARM only); put a redis-server 6.2 or later on PATH"
                                        + " instead, or point the tests at a Redis with REDIS_URL");
    }

    private static Path copyResourceToExecutable(String resource) {
        try (InputStream in = RedisBinary.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(
                        "Resource " + resource + " not found; is com.github.codemonstur:embedded-redis on the classpath?");
            }
            Path file = Files.createTempFile("redis-server-embedded-", "");
            file.toFile().deleteOnExit();
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            if (!file.toFile().setExecutable(true, true)) {
                throw new IllegalStateException("Cannot make " + file + " executable");
            }
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot extract " + resource, e);
        }
    }
}
