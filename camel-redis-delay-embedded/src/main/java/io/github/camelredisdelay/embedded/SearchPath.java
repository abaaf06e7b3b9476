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

import java.io.File;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;

/** Finds an executable in the directories of a {@code PATH}-style search path, as a shell would. */
final class SearchPath {

    private SearchPath() {
    }

    /** The first executable regular file called {@code name} in the directories of the {@code PATH} variable. */
    static Optional<Path> find(String name) {
        return find(name, System.getenv("PATH"));
    }

    /** The first executable regular file called {@code name} in the directories of {@code searchPath}, if any. */
    static Optional<Path> find(String name, String searchPath) {
        if (searchPath == null) {
            return Optional.empty();
        }
        return Arrays.stream(searchPath.split(File.pathSeparator))
                .filter(dir -> !dir.isBlank())
                .map(dir -> candidate(dir, name))
                .flatMap(Optional::stream)
                .filter(file -> Files.isRegularFile(file) && Files.isExecutable(file))
                .findFirst();
    }

    private static Optional<Path> candidate(String dir, String name) {
        try {
            return Optional.of(Path.of(dir, name));
        } catch (InvalidPathException e) {
            return Optional.empty();
        }
    }
}
