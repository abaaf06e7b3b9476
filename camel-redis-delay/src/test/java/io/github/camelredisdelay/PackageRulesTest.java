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
package io.github.camelredisdelay;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rule of the internal package (see its package-info): it imports no Camel type.
 */
class PackageRulesTest {

    @Test
    void theRedisSideImportsNoCamelType() throws IOException {
        Path internal = Path.of("src/main/java/io/github/camelredisdelay/internal");
        List<String> offenders;
        try (Stream<Path> files = Files.list(internal)) {
            offenders = files.filter(file -> file.toString().endsWith(".java"))
                    .filter(file -> read(file).contains("import org.apache.camel."))
                    .map(file -> file.getFileName().toString())
                    .toList();
        }
        assertThat(offenders).isEmpty();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new IllegalStateException("Cannot read " + file, e);
        }
    }
}
