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

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
