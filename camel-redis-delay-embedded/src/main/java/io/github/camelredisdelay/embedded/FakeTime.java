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
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The environment that runs a process under libfaketime (Debian's {@code faketime} package) with its wall clock offset
 * from this machine's: {@code LD_PRELOAD} of {@code libfaketime.so.1}, {@code FAKETIME} with the offset in seconds and
 * {@code FAKETIME_DONT_FAKE_MONOTONIC}, so only the clock {@code TIME} reads is skewed.
 *
 * <p>
 * libfaketime cannot run a binary linked against a shared {@code libjemalloc} (wolfcw/libfaketime#130: jemalloc reads
 * the clock while libfaketime initialises and the process hangs at start, its console saying "Unexpected recursive
 * calls to clock_gettime()"). Debian's {@code redis-server} and {@code valkey-server} are such binaries;
 * {@link RedisBinary#embedded()}, whose jemalloc is built in, is not.
 */
final class FakeTime {

    static final String LIBRARY = "libfaketime.so.1";
    /** Where Debian's package puts it: {@code /usr/lib/<multiarch triplet>/faketime}; then other usual places. */
    private static final List<Path> LIBRARY_ROOTS = List.of(Path.of("/usr/lib"), Path.of("/usr/lib64"),
            Path.of("/usr/local/lib"));

    private FakeTime() {
    }

    /**
     * The variables that offset a process' wall clock by {@code offset} (negative: behind this machine's).
     *
     * @throws IllegalArgumentException when the offset is not a whole number of seconds (libfaketime reads fractions
     *                                  with the locale's decimal separator)
     * @throws IllegalStateException    when libfaketime is not installed
     */
    static Map<String, String> environment(Duration offset) {
        if (offset.getNano() != 0) {
            throw new IllegalArgumentException("A clock offset must be whole seconds, not " + offset);
        }
        Path library = library().orElseThrow(() -> new IllegalStateException(
                "Cannot offset redis-server's clock: no " + LIBRARY + " under " + LIBRARY_ROOTS
                                                                             + " (as <dir>/faketime/" + LIBRARY
                                                                             + " or <dir>/<arch>/faketime/" + LIBRARY
                                                                             + "); install Debian's faketime package: "
                                                                             + "apt-get install faketime"));
        String preload = System.getenv("LD_PRELOAD");
        return Map.of(
                "LD_PRELOAD", preload == null || preload.isBlank() ? library.toString() : library + ":" + preload,
                "FAKETIME", (offset.isNegative() ? "" : "+") + offset.getSeconds(),
                "FAKETIME_DONT_FAKE_MONOTONIC", "1");
    }

    /** The installed {@value #LIBRARY}, if any. */
    static Optional<Path> library() {
        List<Path> candidates = new ArrayList<>();
        for (Path root : LIBRARY_ROOTS) {
            candidates.add(root.resolve("faketime").resolve(LIBRARY));
            if (Files.isDirectory(root)) {
                try (Stream<Path> children = Files.list(root)) {
                    children.sorted().forEach(dir -> candidates.add(dir.resolve("faketime").resolve(LIBRARY)));
                } catch (IOException | UncheckedIOException e) {
                    // an unreadable directory holds no library we could load
                }
            }
        }
        return candidates.stream().filter(Files::isRegularFile).findFirst();
    }
}
