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
package io.github.camelredisdelay.docs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The component page's section "Testing routes that use redis-delay" shows {@link OrderExpiryRouteTest} as it runs: the
 * code between its {@code tag::snippet[]} and {@code end::snippet[]} lines, indented as in the file.
 */
class ComponentPageTestingSectionTest {

    private static final Path PAGE = Path.of("src/main/docs/redis-delay-component.adoc");
    private static final Path SNIPPET = Path.of("src/test/java/io/github/camelredisdelay/docs/OrderExpiryRouteTest.java");
    private static final String SECTION = "=== Testing routes that use redis-delay";

    @Test
    void theTestingSectionShowsTheSnippetThatRuns() throws IOException {
        String source = Files.readString(SNIPPET, StandardCharsets.UTF_8);
        String snippet = source.substring(source.indexOf('\n', source.indexOf("// tag::snippet[]")) + 1,
                source.indexOf("// end::snippet[]"));
        String page = Files.readString(PAGE, StandardCharsets.UTF_8);

        assertThat(page).contains(SECTION);
        String section = page.substring(page.indexOf(SECTION));
        assertThat(section).contains("[source,java]\n----\n" + snippet + "----\n");
    }
}
