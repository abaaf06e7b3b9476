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
import java.util.List;

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

    @Test
    void theEmbeddedBuildIsTheJarsRedis62ForLinuxAndMacOnX64AndArm() {
        assertThat(RedisBinary.embeddedResource("Linux", "amd64")).isEqualTo("/redis-server-6.2.6-v5-linux-amd64");
        assertThat(RedisBinary.embeddedResource("Linux", "aarch64")).isEqualTo("/redis-server-6.2.7-linux-arm64");
        assertThat(RedisBinary.embeddedResource("Mac OS X", "x86_64")).isEqualTo("/redis-server-6.2.6-v5-darwin-amd64");
        assertThat(RedisBinary.embeddedResource("Mac OS X", "aarch64")).isEqualTo("/redis-server-6.2.6-v5-darwin-arm64");
        for (String resource : List.of(RedisBinary.embeddedResource("Linux", "amd64"),
                RedisBinary.embeddedResource("Linux", "aarch64"), RedisBinary.embeddedResource("Mac OS X", "x86_64"),
                RedisBinary.embeddedResource("Mac OS X", "aarch64"))) {
            assertThat(RedisBinary.class.getResource(resource)).as(resource).isNotNull();
        }
    }

    @Test
    void aPlatformTheJarHasNoRedis62ForIsRefusedNamingItAndWhatToDo() {
        assertThatThrownBy(() -> RedisBinary.embeddedResource("Windows 11", "amd64"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("windows 11/amd64")
                .hasMessageContaining("redis-server 6.2 or later on PATH");
    }

    @Test
    void aRedisOnPathOlderThan62IsNotUsed() {
        assertThat(RedisBinary.isSupportedVersion("Redis server v=6.0.16 sha=00000000:0 malloc=jemalloc-5.2.1 bits=64"))
                .isFalse();
        assertThat(RedisBinary.isSupportedVersion("Redis server v=6.2.6 sha=00000000:0 malloc=libc bits=64")).isTrue();
        assertThat(RedisBinary.isSupportedVersion("Redis server v=7.0.15 sha=00000000:0 malloc=jemalloc-5.3.0 bits=64"))
                .isTrue();
        assertThat(RedisBinary.isSupportedVersion("Redis server v=10.1.0 sha=00000000:0")).isTrue();
        assertThat(RedisBinary.isSupportedVersion("something else")).isFalse();
    }
}
