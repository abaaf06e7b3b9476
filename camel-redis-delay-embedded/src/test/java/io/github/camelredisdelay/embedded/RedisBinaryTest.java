package io.github.camelredisdelay.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

class RedisBinaryTest {

    @Test
    void pathChoicePrefersTheBinaryOnPath() {
        Path expected = RedisBinary.onPath().orElseGet(RedisBinary::embedded).path();

        assertThat(RedisBinary.select("path").path()).isEqualTo(expected);
    }

    @Test
    void embeddedBinaryIsExtractedOncePerJvmAsAnExecutable() {
        Path first = RedisBinary.embedded().path();

        assertThat(RedisBinary.select("embedded").path()).isEqualTo(first);
        assertThat(Files.isExecutable(first)).isTrue();
    }

    @Test
    void unknownChoiceIsRejectedWithTheAllowedValues() {
        assertThatThrownBy(() -> RedisBinary.select("docker"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'docker'")
                .hasMessageContaining("'path'")
                .hasMessageContaining("'embedded'")
                .hasMessageContaining("'valkey'");
    }
}
