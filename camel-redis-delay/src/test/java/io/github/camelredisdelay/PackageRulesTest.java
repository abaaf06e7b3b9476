package io.github.camelredisdelay;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

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
