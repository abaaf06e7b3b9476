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
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Optional;

/**
 * A {@code redis-server} executable: the one on {@code PATH}, the Linux x86-64 6.2 build that the
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
    private static final String EMBEDDED_RESOURCE = "/redis-server-6.2.6-v5-linux-amd64";

    /** Extracted at most once per JVM; every embedded instance shares the file. */
    private static Path extracted;

    private final Path path;

    private RedisBinary(Path path) {
        this.path = path;
    }

    /**
     * The first executable {@code redis-server} in the directories of the {@code PATH} environment variable, if any.
     */
    public static Optional<RedisBinary> onPath() {
        return SearchPath.find(EXECUTABLE_NAME).map(RedisBinary::new);
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
     * @throws IllegalStateException when this is not Linux on x86-64, the only platform it runs on here
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
            requireLinuxX64();
            extracted = copyResourceToExecutable();
        }
        return extracted;
    }

    private static void requireLinuxX64() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (!os.contains("linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
            throw new IllegalStateException(
                    "The embedded redis-server " + EMBEDDED_RESOURCE
                                            + " runs on Linux x86-64 only, not on " + os + "/" + arch
                                            + "; put a redis-server on PATH instead");
        }
    }

    private static Path copyResourceToExecutable() {
        try (InputStream in = RedisBinary.class.getResourceAsStream(EMBEDDED_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(
                        "Resource " + EMBEDDED_RESOURCE
                                                + " not found; is com.github.codemonstur:embedded-redis on the classpath?");
            }
            Path file = Files.createTempFile("redis-server-embedded-", "");
            file.toFile().deleteOnExit();
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            if (!file.toFile().setExecutable(true, true)) {
                throw new IllegalStateException("Cannot make " + file + " executable");
            }
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot extract " + EMBEDDED_RESOURCE, e);
        }
    }
}
