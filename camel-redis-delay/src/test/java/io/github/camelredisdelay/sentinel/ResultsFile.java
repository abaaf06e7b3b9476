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

    static void append(String scenario, String redisVersion, int sent, int delivered, int duplicates, int lost,
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
