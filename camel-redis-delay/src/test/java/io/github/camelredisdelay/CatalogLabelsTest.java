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
import java.util.Arrays;

import org.apache.camel.util.json.JsonObject;
import org.apache.camel.util.json.Jsoner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The catalog's label of an option says which endpoints use it: tools offer a {@code consumer} option on a route's
 * {@code from} only, and the component page lists it among the consumer's options. An option that a producer's
 * operations read must be labeled for producers too ({@code common} or {@code producer}): {@code deadLetterQueue} is
 * where {@code operation=redrive}, {@code peek} and {@code stats} of an operator's endpoint look for dead letters
 * ({@code RedriveTest}), and such an endpoint must name it when no consumer of the queue runs in its CamelContext.
 */
class CatalogLabelsTest {

    private static final Path CATALOG = Path.of("src/generated/resources/META-INF/io/github/camelredisdelay/redis-delay.json");

    @ParameterizedTest
    @ValueSource(strings = { "properties", "componentProperties" })
    void anOptionProducerOperationsReadIsOfferedToProducers(String section) throws Exception {
        JsonObject catalog = (JsonObject) Jsoner.deserialize(Files.readString(CATALOG, StandardCharsets.UTF_8),
                new JsonObject());
        JsonObject option = (JsonObject) catalog.getMap(section).get("deadLetterQueue");

        assertThat(Arrays.asList(String.valueOf(option.get("label")).split(",")))
                .as("labels of deadLetterQueue in %s", section).containsAnyOf("common", "producer");
    }
}
