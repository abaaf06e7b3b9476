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
package io.github.camelredisdelay.sentinel;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;

/**
 * Appends a scenario's result line to {@code target/faults-results.txt}, in the layout of the other fault tests
 * (scenario, Redis version, sent / delivered / duplicates / lost), and prints it.
 */
final class ResultsFile {

    static final Path PATH = Path.of(System.getProperty("basedir", System.getProperty("user.dir")), "target",
            "faults-results.txt");

    private ResultsFile() {
    }

    static void append(
            String scenario, String redisVersion, int sent, int delivered, int duplicates, int lost,
            Duration took, String notes) {
        String line = String.format("[faults] %-58s redis %-7s sent=%-7d delivered=%-7d duplicates=%-5d lost=%-4d"
                                    + " took=%5.1fs %s",
                scenario, redisVersion, sent, delivered, duplicates, lost, took.toMillis() / 1000.0, notes);
        System.out.println(line);
        try {
            Files.createDirectories(PATH.getParent());
            Files.writeString(PATH, line + System.lineSeparator(), StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot append to " + PATH, e);
        }
    }
}
