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

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.apache.camel.util.json.JsonObject;
import org.apache.camel.util.json.Jsoner;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The options read strictly as durations are exactly those the catalog types as durations, so a new duration option
 * cannot slip past the strict check.
 */
class StrictOptionsConfigurerTest {

    @Test
    void strictlyReadOptionsAreTheCatalogsDurationOptions() throws Exception {
        JsonObject catalog = (JsonObject) Jsoner.deserialize(Files.readString(
                Path.of("src/generated/resources/META-INF/io/github/camelredisdelay/redis-delay.json"), StandardCharsets.UTF_8),
                new JsonObject());
        Map<String, Object> options = catalog.getMap("properties");
        Set<String> durations = options.entrySet().stream()
                .filter(option -> "duration".equals(((Map<?, ?>) option.getValue()).get("type")))
                .map(Map.Entry::getKey)
                .collect(Collectors.toSet());

        assertThat(durations).isEqualTo(StrictOptionsConfigurer.DURATION_OPTIONS);
    }
}
